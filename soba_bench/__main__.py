from soba_bench.cli.main import main

raise SystemExit(main())

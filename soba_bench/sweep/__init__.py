"""Sweep stage: the Hydra app (``app``: ``soba-bench run [-m]``), its config schemas
(``schema``), a job resolved and keyed (``jobspec``), run (``job``) and recorded (``record``,
``store``: run folders, the job index that resume uses; ``tables``: Parquet), progress and the
multirun callbacks. Core stages never import this package."""

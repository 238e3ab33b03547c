"""Command-line interface: ``soba-bench <command>``; each command is a small module."""

"""``python -m polygon`` runs the CLI."""

from polygon.cli.main import main

main()

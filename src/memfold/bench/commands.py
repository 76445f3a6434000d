"""The `memfold bench` subcommands."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []

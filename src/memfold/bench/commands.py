"""The `memfold bench` subcommands."""

from __future__ import annotations

import click

from .index_bench import index_command

COMMANDS: list[click.Command] = [index_command]

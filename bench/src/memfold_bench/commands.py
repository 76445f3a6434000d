"""The `memfold bench` subcommands."""

from __future__ import annotations

import click

from .capture_bench import capture_command
from .embed_bench import embed_command
from .fuzz import fuzz_command
from .import_bench import import_command
from .index_bench import index_command
from .judge_bench import judge_command
from .lab import lab_command
from .locomo import locomo_command
from .ltr import ltr_features_command
from .personal_bench import personal_command
from .personal_years import personal_years_command
from .recall_bench import recall_command
from .review_bench import review_command
from .scale import scale_command
from .server_bench import server_command
from .server_isolation import server_isolation_command
from .server_scale import server_scale_command
from .server_trials import server_trials_command
from .sidebyside import sidebyside_command
from .soak import soak_command
from .tokens_bench import tokens_command
from .truth_bench import truth_command
from .year_bench import year_command

COMMANDS: list[click.Command] = [index_command]
COMMANDS += [locomo_command, scale_command]
COMMANDS += [lab_command]
COMMANDS += [recall_command]
COMMANDS += [soak_command]
COMMANDS += [embed_command]
COMMANDS += [judge_command]
COMMANDS += [fuzz_command]
COMMANDS += [server_isolation_command]
COMMANDS += [server_command]
COMMANDS += [server_trials_command]
COMMANDS += [server_scale_command]
COMMANDS += [sidebyside_command]
COMMANDS += [personal_command, truth_command, year_command, ltr_features_command]
COMMANDS += [personal_years_command]
COMMANDS += [capture_command, import_command]
COMMANDS += [tokens_command]
COMMANDS += [review_command]

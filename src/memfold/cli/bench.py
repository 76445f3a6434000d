"""`memfold bench`: the benchmarks' commands, loaded from their own distribution
(memfold-bench, package memfold_bench, in bench/) only when `memfold bench` runs."""

from __future__ import annotations

import importlib
from typing import Any

import click

from memfold.errors import MemfoldError


class LazyGroup(click.Group):
    """A command group whose subcommands live in a module imported only when used."""

    def __init__(self, *args: Any, module: str, missing: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.module = module
        self.missing = missing  # the error when that module's package is not installed

    def _load(self) -> None:
        if not self.commands:
            try:
                module = importlib.import_module(self.module)
            except ModuleNotFoundError as exc:
                if exc.name != self.module.partition(".")[0]:
                    raise  # a module missing inside the package is a bug, not an install
                raise MemfoldError(self.missing) from None
            for command in module.COMMANDS:
                self.add_command(command)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        self._load()
        return super().get_command(ctx, cmd_name)


# The benchmarks are their own distribution beside memfold (bench/), imported only here.
@click.group(cls=LazyGroup, module="memfold_bench.commands",
           missing="memfold bench needs the benchmarks (memfold-bench, package memfold_bench), "
                   "not installed here: pip install -e ./bench in a checkout of memfold")
@click.option("--order", type=click.Choice(["learned", "rules"]), default=None,
              help="How recall orders its best in every benchmark of this run: the learned "
                   "weights (`recall.learned`) or recall's own rules.  [default: "
                   "MEMFOLD_RECALL_ORDER, learned]")
@click.option("--learned", is_flag=True, help="The same as --order learned (kept for old "
                                              "scripts).")
@click.pass_context
def bench(ctx: click.Context, order: str | None, learned: bool) -> None:
    """Benchmarks: commands that print figures beside a floor measured in the same run.

    Results are written as JSON under benchmarks/results/ (or --out).  --order rules
    measures recall without its learned order (docs/benchmarks.md, "ltr41").

    \b
    Example:
      memfold bench index --files 365
      memfold bench --order rules personal ../shared/bench/personal-dev.json
    """
    if learned and order == "rules":
        raise click.UsageError("--learned and --order rules disagree; give one")
    if learned or order:
        from memfold.recall.learned import ordering

        ctx.with_resource(ordering(learned or order == "learned"))


COMMANDS = [bench]

"""Registering a write's CLI command from its use-case row (api/usecases_write.py), as ``read_command`` does
for reads: the options from the request model, a field the CLI cannot take left out only when the row
declares it (``exceptions``), a refused value printed as one line with exit code 2."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import typer

from strata.api.cli_query import _fail
from strata.api.derive import KW, cli_command
from strata.api.usecases_write import WRITE_BY_NAME


def write_command(case: str, app: typer.Typer, address: list[inspect.Parameter], *, json_flag: bool = True
                  ) -> Callable[[Callable[..., None]], Callable[..., None]]:
    return cli_command(app, WRITE_BY_NAME[case], address=address, on_invalid=_fail, json_flag=json_flag)


def argument(name: str, text: str, metavar: str | None = None) -> inspect.Parameter:
    info = typer.Argument(..., help=text, metavar=metavar or name.upper())
    return inspect.Parameter(name, KW, annotation=str, default=info)


def option(name: str, text: str, *, required: bool = True) -> inspect.Parameter:
    default = typer.Option(... if required else None, f"--{name}", help=text)
    return inspect.Parameter(name, KW, annotation=str if required else str | None, default=default)


def flag(name: str, text: str) -> inspect.Parameter:
    return inspect.Parameter(name, KW, annotation=bool, default=typer.Option(False, f"--{name}", help=text))

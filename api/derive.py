"""Front-end parameters derived from a use case's request model (schema/requests.py).

REST takes the model itself as a FastAPI query-parameter model (``Annotated[Model, Query()]``). MCP and the
CLI get a function whose signature lists the model's fields (built here), so a field added to the model is a
tool argument and a command option at once; each call is validated by the model (``parse``), so a bound or a
type is refused with the same ``RequestInvalid`` in both, and REST's 422 lists the same problems.
"""

from __future__ import annotations

import inspect
import json
import types
import typing
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import datetime
from typing import Annotated, Any

import typer
from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from strata.api.usecases import UseCase
from strata.schema.errors import RequestInvalid
from strata.schema.requests import parse

KW = inspect.Parameter.KEYWORD_ONLY


def wire_name(name: str, field: FieldInfo) -> str:
    """The name a front-end shows: the field's alias (``from``) or its name."""
    return field.alias or name


def _signature(params: list[inspect.Parameter], returns: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def apply(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__signature__ = inspect.Signature(params, return_annotation=returns)  # type: ignore[attr-defined]
        fn.__annotations__ = {p.name: p.annotation for p in params} | {"return": returns}
        return fn

    return apply


# -- MCP ------------------------------------------------------------------------------------------------------


def mcp_parameters(model: type[BaseModel], legacy: Iterable[str] = ()) -> list[inspect.Parameter]:
    """One keyword per field, typed ``Any``: the SDK hands the values over as sent and the model judges them
    (the tool's published input schema is the model's, ``mcp_schema``). ``legacy``: older argument names the
    tool still takes (not published)."""
    out = []
    for name, field in model.model_fields.items():
        # None is "not given": the model applies its default, or says a required field is missing
        annotation: Any = Annotated[Any, Field(alias=field.alias)] if field.alias else Any
        out.append(inspect.Parameter(name, KW, default=None, annotation=annotation))
    out += [inspect.Parameter(name, KW, default=None, annotation=Any) for name in legacy]
    return out


def mcp_schema(model: type[BaseModel], address: Mapping[str, str]) -> dict[str, Any]:
    """The tool's input schema: the address arguments (``group``, ``uuid``; required strings) and the model's."""
    schema = model.model_json_schema(by_alias=True)
    props = {name: {"type": "string", "description": text} for name, text in address.items()}
    out: dict[str, Any] = {"type": "object", "properties": props | schema.get("properties", {}),
                           "required": [*address, *schema.get("required", [])]}
    if "$defs" in schema:
        out["$defs"] = schema["$defs"]
    return out


def mcp_tool(server: Any, name: str, model: type[BaseModel], address: Mapping[str, str], doc: str,
             run: Callable[[Any, dict[str, str], BaseModel], Awaitable[Any]],
             legacy: Mapping[str, str] | None = None) -> None:
    """Register tool ``name`` on the MCP server: ``address`` names its address arguments (with their
    descriptions), ``run(ctx, address_values, request)`` answers. ``legacy`` maps old argument names to fields."""
    from mcp.server.mcpserver import Context
    from mcp.server.mcpserver.exceptions import ToolError

    legacy = dict(legacy or {})
    params = [inspect.Parameter(a, KW, annotation=str) for a in address]
    params += [*mcp_parameters(model, legacy), inspect.Parameter("ctx", KW, annotation=Context)]

    async def tool(**given: Any) -> Any:
        ctx = given.pop("ctx")
        where = {a: given.pop(a) for a in address}
        for old, new in legacy.items():
            value = given.pop(old, None)
            if value is not None and given.get(new) is None:
                given[new] = value
        try:
            ask = parse(model, {k: v for k, v in given.items() if v is not None})
        except RequestInvalid as exc:  # as every Strata error reaches an MCP client: code and message
            raise ToolError(f"{exc.code}: {exc.message}") from None
        return await run(ctx, where, ask)

    tool.__name__ = tool.__qualname__ = name
    _signature(params, dict[str, Any])(tool)
    server.add_tool(tool, name=name, description=doc)
    server._tool_manager.get_tool(name).parameters = mcp_schema(model, address)


# -- CLI ------------------------------------------------------------------------------------------------------


def _bare(annotation: Any) -> Any:
    """``int`` of ``int | None``; the annotation itself otherwise."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return args[0] if len(args) == 1 else annotation
    return annotation


def is_json(field: FieldInfo) -> bool:
    """A field the CLI takes as one JSON value: an object (``metadata``) or a list of objects (``messages``)."""
    kind = _bare(field.annotation)
    if kind is dict or typing.get_origin(kind) is dict:
        return True
    items = typing.get_args(kind) if typing.get_origin(kind) is list else ()
    return bool(items) and isinstance(items[0], type) and issubclass(items[0], BaseModel)


def _cli_values(model: type[BaseModel], values: dict[str, Any]) -> dict[str, Any]:
    """The CLI's text as a JSON client sends it: JSON options decoded (text that is not JSON refused as the
    model refuses a bad value), a number field's text as that number (a model that takes JSON numbers only,
    as the retention policy, then judges it like any client's; text that is no number is left to refuse)."""
    out = dict(values)
    for name, field in model.model_fields.items():
        wire = wire_name(name, field)
        kind = _bare(field.annotation)
        if kind in (int, float) and isinstance(out.get(wire), str):
            try:
                out[wire] = kind(out[wire])
            except ValueError:
                pass
        if is_json(field) and isinstance(out.get(wire), str):
            try:
                out[wire] = json.loads(out[wire])
            except ValueError as exc:
                problem = {"loc": [wire], "msg": f"not JSON ({exc})", "type": "json_invalid"}
                raise RequestInvalid(f"the request does not match the API schema ({wire}: not JSON)",
                                     {"errors": [problem]}) from None
    return out


def _metavar(kind: Any) -> str:
    if kind is datetime:
        return "ISO-TIME"
    if kind in (int, float):
        return "NUMBER" if kind is float else "INTEGER"
    return "TEXT"


def cli_parameters(model: type[BaseModel], arguments: Iterable[str] = (),
                   flags: Mapping[str, Iterable[str]] | None = None,
                   skip: Iterable[str] = ()) -> list[inspect.Parameter]:
    """Typer parameters for the model's fields: ``arguments`` positional (in that order), the rest options
    ``--field-name`` (plus older ``flags``); values stay text for the model to judge, bounds included."""
    flags, skip, arguments = dict(flags or {}), set(skip), list(arguments)
    positional, options = [], []
    for name, field in model.model_fields.items():
        if name in skip:
            continue
        wire = wire_name(name, field)
        kind = _bare(field.annotation)
        help_text = field.description or ""
        if name in arguments:
            info = typer.Argument(... if field.is_required() else None, help=help_text, metavar=wire.upper(),
                                  show_default=False)
            positional.append((arguments.index(name), inspect.Parameter(name, KW, default=info, annotation=str)))
            continue
        decls = [f"--{wire.replace('_', '-')}", *flags.get(name, ())]
        if kind is bool or kind == typing.Literal[True]:
            # a required flag (a confirmation, Literal[True]) is off unless given: the model then refuses it
            default = bool(field.default) if not field.is_required() else False
            if default:
                decls = [f"{decls[0]}/--no-{wire.replace('_', '-')}", *decls[1:]]
            info = typer.Option(default, *decls, help=help_text)
            options.append(inspect.Parameter(name, KW, default=info, annotation=bool))
        elif is_json(field):
            info = typer.Option(None, *decls, help=f"{help_text} (JSON)".strip(), metavar="JSON")
            options.append(inspect.Parameter(name, KW, default=info, annotation=str | None))
        elif typing.get_origin(kind) is list:
            info = typer.Option(None, *decls, help=f"{help_text} (repeat for several)".strip())
            options.append(inspect.Parameter(name, KW, default=info, annotation=list[str] | None))
        else:
            shown = field.get_default() if not field.is_required() else None
            info = typer.Option(... if field.is_required() else None, *decls, help=help_text,
                                metavar=_metavar(kind), show_default=str(shown) if shown not in (None, "") else False)
            options.append(inspect.Parameter(name, KW, default=info, annotation=str | None))
    return [p for _, p in sorted(positional, key=lambda x: x[0])] + options


def cli_command(app: typer.Typer, case: UseCase, *, address: list[inspect.Parameter],
                on_invalid: Callable[[RequestInvalid], Any], json_flag: bool = True
                ) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register use case ``case``'s command (the last word of ``case.cli``): its parameters are ``address``
    (``--group``, an entity, or a front-end's own option such as ``--wait``), the request model's fields (but
    those the row says the CLI does not take) and ``--json`` (unless not ``json_flag``); the decorated function
    is called as ``fn(ask, **address, as_json=...)``."""
    model, name = case.request, case.cli.split()[-1]
    skip = {*case.cli_skip, *(n for n in model.model_fields if f"cli:{n}" in case.exceptions)}
    fields = cli_parameters(model, case.cli_arguments, case.cli_flags, skip)
    field_names = [p.name for p in fields]
    as_json = inspect.Parameter("as_json", KW, annotation=bool,
                                default=typer.Option(False, "--json", help="Print the answer as JSON (as REST and "
                                                                           "MCP give it)."))
    positional = [p for p in address if isinstance(p.default, typer.models.ArgumentInfo)]
    params = positional + [p for p in fields if isinstance(p.default, typer.models.ArgumentInfo)]
    params += [p for p in address if p not in positional]
    params += [p for p in fields if not isinstance(p.default, typer.models.ArgumentInfo)]
    params += [as_json] if json_flag else []

    def decorate(fn: Callable[..., None]) -> Callable[..., None]:
        def command(**given: Any) -> None:
            values = {wire_name(n, model.model_fields[n]): given.pop(n) for n in field_names}
            values = {k: v for k, v in values.items() if v is not None}
            try:
                ask = parse(model, _cli_values(model, values))
            except RequestInvalid as exc:
                on_invalid(exc)
                return
            fn(ask, **given)

        command.__name__ = fn.__name__
        command.__doc__ = fn.__doc__
        _signature(params, None)(command)
        app.command(name)(command)
        return fn

    return decorate

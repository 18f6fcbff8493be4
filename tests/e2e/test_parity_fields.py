"""Every read use case (api/usecases.py) takes every field of its request model from REST, MCP and the CLI,
with the same bounds, and refuses a value past a bound alike: REST 422, MCP and CLI ``validation_error``, each
naming the field. A field added to a request model and missing from a front-end fails here."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from typer.testing import CliRunner

from strata.api.usecases import READS, UseCase
from strata.schema.requests import Request

pytestmark = pytest.mark.integration
CASES = [pytest.param(case, id=case.name) for case in READS]
ADDRESS = {"group", "uuid"}


def wire(model: type[Request]) -> dict[str, dict[str, Any]]:
    """The model's fields by the name clients use, with their JSON schema (bounds, defaults)."""
    return model.model_json_schema(by_alias=True)["properties"]


def bounds(schema: dict[str, Any]) -> dict[str, Any]:
    """The bounds of one parameter's schema, whatever way it is nested (``anyOf`` with null)."""
    keys = ("minimum", "maximum", "maxLength", "minLength", "pattern", "enum")
    found = {k: schema[k] for k in keys if k in schema}
    for part in schema.get("anyOf", []):
        found |= bounds(part)
    if "items" in schema:
        found |= {f"items.{k}": v for k, v in bounds(schema["items"]).items()}
    return found


@pytest.fixture(scope="module")
def openapi(client) -> dict[str, Any]:
    return client.get("/openapi.json").json()


@pytest.fixture(scope="module")
def mcp_tools(client) -> dict[str, dict[str, Any]]:
    from strata.api.mcp_server import build_mcp

    tools = asyncio.run(build_mcp(client.app).list_tools())
    return {t.name: t.input_schema for t in tools}


def cli_command(case: UseCase) -> Any:
    import typer

    from strata.api.cli import app

    cmd: Any = typer.main.get_command(app)
    for part in case.cli.split():
        cmd = cmd.commands[part]
    return cmd


def rest_parameters(openapi: dict[str, Any], case: UseCase) -> dict[str, dict[str, Any]]:
    method, path = case.rest.split(" ", 1)
    operation = openapi["paths"][path][method.lower()]
    return {p["name"]: p["schema"] for p in operation.get("parameters", []) if p["in"] == "query"}


@pytest.mark.parametrize("case", CASES)
def test_rest_takes_every_field_with_its_bounds(openapi, case: UseCase) -> None:
    fields, params = wire(case.request), rest_parameters(openapi, case)
    assert set(params) == set(fields)
    for name, schema in fields.items():
        assert bounds(params[name]) == bounds(schema), name
        assert params[name].get("default") == schema.get("default"), name


@pytest.mark.parametrize("case", CASES)
def test_mcp_takes_every_field_with_its_bounds(mcp_tools, case: UseCase) -> None:
    fields, schema = wire(case.request), mcp_tools[case.mcp]
    assert set(schema["properties"]) - ADDRESS == set(fields)
    assert set(schema["required"]) - ADDRESS == set(case.request.model_json_schema(by_alias=True).get("required", []))
    for name, field in fields.items():
        assert bounds(schema["properties"][name]) == bounds(field), name


@pytest.mark.parametrize("case", CASES)
def test_the_cli_takes_every_field(case: UseCase) -> None:
    cmd = cli_command(case)
    address = {"group", "entity"} if case.on == "entity" else {"group"}
    names = {p.name for p in cmd.params} - address - {"as_json", "help"}
    taken = {name for name in case.request.model_fields if name not in case.cli_skip}
    assert names == taken
    for p in cmd.params:
        if p.name in taken and getattr(p, "param_type_name", "") == "option":
            field = case.request.model_fields[p.name]
            assert f"--{(field.alias or p.name).replace('_', '-')}" in p.opts  # the field's own name, always
    assert set(case.cli_skip) <= set(case.request.model_fields)  # a skip names a field, and says why
    assert all(case.cli_skip.values())


def past_a_bound(case: UseCase) -> tuple[str, Any] | None:
    """A field the CLI takes too, and a value past its bound: one over a maximum (under a minimum) for a number,
    one character over for a text."""
    for name, schema in wire(case.request).items():
        field = next(n for n, f in case.request.model_fields.items() if (f.alias or n) == name)
        found = bounds(schema)
        if field in case.cli_skip or field in case.cli_arguments:
            continue
        if "maximum" in found:
            return name, found["maximum"] + 1
        if "minimum" in found:
            return name, found["minimum"] - 1
        if "maxLength" in found:
            return name, "x" * (found["maxLength"] + 1)
    return None


def required_values(case: UseCase) -> dict[str, Any]:
    return {name: "Maya" for name in case.request.model_json_schema(by_alias=True).get("required", [])}


@pytest.mark.parametrize("case", CASES)
def test_a_value_past_a_bound_is_refused_alike(client, make_key, group_id, case: UseCase) -> None:
    bad = past_a_bound(case)
    assert bad is not None, "every read bounds a value (a limit, a depth, a name's length)"
    name, value = bad
    target = "6b0c5e4e-0000-5000-8000-000000000000"
    args = {**required_values(case), name: value}

    method, path = case.rest.split(" ", 1)
    url = path.format(group=group_id, uuid=target)
    rest = client.request(method, url, params=args, headers=make_key([group_id]))
    assert rest.status_code == 422, rest.text
    assert rest.json()["error"]["code"] == "validation_error"
    assert [["query", name]] == [e["loc"] for e in rest.json()["error"]["details"]["errors"]]

    address = {"group": group_id} if case.on == "group" else {"uuid": target}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": case.mcp, "arguments": {**address, **args}}}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    answer = client.post("/mcp/", headers=headers, content=json.dumps(body)).json()["result"]
    said = answer["content"][0]["text"]
    assert answer["isError"] and "validation_error: " in said and name in said, said

    from strata.api.cli import app

    argv = [*case.cli.split()]
    if case.on == "entity":
        argv.append(target)
    fields = case.request.model_fields
    for arg in case.cli_arguments:
        if (fields[arg].alias or arg) in args:
            argv.append(str(args.pop(fields[arg].alias or arg)))
    for key, v in args.items():
        argv += [f"--{key.replace('_', '-')}", str(v)]
    done = CliRunner().invoke(app, [*argv, "--group", group_id])
    assert done.exit_code == 2, done.output
    assert "does not match the API schema" in done.output and name in done.output, done.output


@pytest.mark.parametrize(("route", "tool", "command"), [
    ("/v1/groups/{group}/agents", "list_agents", "agents"),
    ("/v1/groups/{group}/schema", "group_schema", "schema show"),
])
def test_reads_of_a_whole_group_answer_alike(client, make_key, group_id, settings, route, tool, command) -> None:
    """The reads without parameters: one answer from REST, MCP and the CLI's --json."""
    rest = client.get(route.format(group=group_id), headers=make_key([group_id]))
    assert rest.status_code == 200, rest.text
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
               **make_key([group_id])}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": tool, "arguments": {"group": group_id}}}
    mcp = client.post("/mcp/", headers=headers, content=json.dumps(body)).json()["result"]["structuredContent"]
    from strata.api.cli import app

    env = {"STRATA_NEO4J_URI": settings.neo4j_uri, "STRATA_REDIS_URL": settings.redis_url}
    done = CliRunner().invoke(app, [*command.split(), "--group", group_id, "--json"], env=env)
    assert done.exit_code == 0, done.output
    cli = json.loads(done.stdout)
    expected = rest.json()
    assert (mcp["result"] if isinstance(expected, list) else mcp) == expected
    assert cli == expected

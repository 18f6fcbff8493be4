"""Every use case, read (api/usecases.py) or write (api/usecases_write.py), takes every field of its request
model from REST, MCP and the CLI, with the same bounds, and refuses a value past a bound alike: REST 422, MCP
``validation_error``, the CLI exit code 2, each naming the field. A field added to a request model and missing
from a front-end fails here; so does a parameter one front-end has alone, unless its row declares it
(``exceptions``, with the reason)."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Literal

import pytest
from typer.testing import CliRunner

from strata.api.derive import is_json
from strata.api.usecases import NO_MCP, READS, UseCase
from strata.api.usecases_write import CLI_ADDRESS, MCP_ADDRESS, WRITES
from strata.schema.requests import Request

pytestmark = pytest.mark.integration
ALL = (*READS, *WRITES)
CASES = [pytest.param(case, id=case.name) for case in ALL]
# Use cases whose request has no bounded field (a flag, a confirmation, or nothing beyond the address): checked
# below to stay so; a missing confirmation is refused alike (test_an_unconfirmed_purge_is_refused_alike).
UNBOUNDED = {"retract_episode", "retract_source", "unmerge", "apply_retention", "retention", "purge_group",
             "purge_retention"}
BOUNDED = [pytest.param(case, id=case.name) for case in ALL if case.name not in UNBOUNDED]


def own(case: UseCase, front: str) -> set[str]:
    """The parameters the row declares for ``front`` alone (an upload, the CLI's --wait)."""
    fields = {f.alias or n for n, f in case.request.model_fields.items()}
    return {k.split(":", 1)[1] for k in case.exceptions if k.startswith(f"{front}:")} - fields


def lacks(case: UseCase, front: str) -> set[str]:
    """The request's fields the row declares ``front`` cannot take."""
    fields = {f.alias or n for n, f in case.request.model_fields.items()}
    return {k.split(":", 1)[1] for k in case.exceptions if k.startswith(f"{front}:")} & fields


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


def body_schema(openapi: dict[str, Any], schema: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """A request body's properties and required names, through ``$ref`` and ``allOf`` (a form beside a file)."""
    if "$ref" in schema:
        return body_schema(openapi, openapi["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]])
    props, required = dict(schema.get("properties", {})), set(schema.get("required", []))
    for part in schema.get("allOf", []):
        more, needed = body_schema(openapi, part)
        props, required = props | more, required | needed
    return props, required


def rest_parameters(openapi: dict[str, Any], case: UseCase) -> tuple[str, dict[str, dict[str, Any]], set[str]]:
    """Where the route takes its parameters ("query", "json", "form"), each one's schema, the required ones."""
    method, path = case.rest.split(" ", 1)
    operation = openapi["paths"][path][method.lower()]
    query = {p["name"]: p["schema"] for p in operation.get("parameters", []) if p["in"] == "query"}
    content = operation.get("requestBody", {}).get("content", {})
    if not content:
        required = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query" and p.get("required")}
        return "query", query, required
    media, body = next(iter(content.items()))
    props, required = body_schema(openapi, body["schema"])
    return ("form" if media.startswith("multipart/") else "json"), query | props, required


@pytest.mark.parametrize("case", CASES)
def test_rest_takes_every_field_with_its_bounds(openapi, case: UseCase) -> None:
    fields = wire(case.request)
    _, params, required = rest_parameters(openapi, case)
    assert set(params) - own(case, "rest") == set(fields) - lacks(case, "rest")
    assert own(case, "rest") <= set(params)  # a declared parameter of its own is there
    assert required - own(case, "rest") == set(case.request.model_json_schema(by_alias=True).get("required", []))
    for name, schema in fields.items():
        assert bounds(params[name]) == bounds(schema), name
        assert params[name].get("default") == schema.get("default"), name


@pytest.mark.parametrize("case", CASES)
def test_mcp_takes_every_field_with_its_bounds(mcp_tools, case: UseCase) -> None:
    if not case.has_mcp:  # no tool on purpose: the row says why, and names none
        assert case.exceptions[NO_MCP] and not case.mcp
        assert not any(name.replace("_", "") == case.name.replace("_", "") for name in mcp_tools)
        return
    fields, schema, address = wire(case.request), mcp_tools[case.mcp], set(MCP_ADDRESS[case.on])
    model = case.mcp_request or case.request
    assert set(schema["properties"]) - address - own(case, "mcp") == set(fields) - lacks(case, "mcp")
    assert set(schema["properties"]) - address == set(wire(model))  # the tool's model, nothing hand-added
    assert set(schema["required"]) - address == set(model.model_json_schema(by_alias=True).get("required", []))
    for name, field in fields.items():
        assert bounds(schema["properties"][name]) == bounds(field), name


@pytest.mark.parametrize("case", CASES)
def test_the_cli_takes_every_field(case: UseCase) -> None:
    cmd = cli_command(case)
    address = CLI_ADDRESS[case.on] | {"group"}
    names = {p.name for p in cmd.params} - address - {"as_json", "help"}
    taken = {name for name, f in case.request.model_fields.items()
             if name not in case.cli_skip and (f.alias or name) not in lacks(case, "cli")}
    assert names - own(case, "cli") == taken
    assert own(case, "cli") <= names
    for p in cmd.params:
        if p.name in taken and getattr(p, "param_type_name", "") == "option":
            field = case.request.model_fields[p.name]
            assert f"--{(field.alias or p.name).replace('_', '-')}" in p.opts  # the field's own name, always
    assert set(case.cli_skip) <= set(case.request.model_fields)  # a skip names a field, and says why
    assert all(case.cli_skip.values())


def past_a_bound(case: UseCase) -> tuple[str, Any] | None:
    """A field all three front-ends take as an option, and a value past its bound: one over a maximum (under a
    minimum) for a number, one character over for a text (texts of up to 10,000), an empty list for a list."""
    taken_by_all = lacks(case, "rest") | lacks(case, "mcp") | lacks(case, "cli")
    for name, schema in wire(case.request).items():
        field = next(n for n, f in case.request.model_fields.items() if (f.alias or n) == name)
        found = bounds(schema) | {k: schema[k] for k in ("minItems",) if k in schema}
        if field in case.cli_skip or field in case.cli_arguments or name in taken_by_all:
            continue
        if "maximum" in found:
            return name, found["maximum"] + 1
        if "minimum" in found:
            return name, found["minimum"] - 1
        if found.get("maxLength", 10**9) <= 10_000:
            return name, "x" * (found["maxLength"] + 1)
        if found.get("minItems"):
            return name, []
    return None


def required_values(model: type[Request]) -> dict[str, Any]:
    """A valid value for each required field: the first choice of a choice, a name otherwise."""
    schema = model.model_json_schema(by_alias=True)
    return {name: schema["properties"][name].get("enum", ["Maya"])[0] for name in schema.get("required", [])}


TARGET, OTHER = "6b0c5e4e-0000-5000-8000-000000000000", "6b0c5e4e-0000-5000-8000-000000000001"


def cli_address(case: UseCase, tmp_path) -> list[str]:
    """The CLI's arguments before the options: the object written to or read, a file for an upload."""
    if "cli:path" in case.exceptions:
        path = tmp_path / "chat.jsonl"
        path.write_text('{"speaker": "Maya", "text": "hello"}\n', encoding="utf-8")
        return [str(path)]
    return {"group": [], "entity": [TARGET], "fact": [TARGET], "episode": ["episode", TARGET],
            "source": ["source", TARGET], "record": [TARGET, "--record", OTHER], "pair": [TARGET, OTHER]}[case.on]


@pytest.mark.parametrize("case", BOUNDED)
def test_a_value_past_a_bound_is_refused_alike(client, openapi, make_key, group_id, tmp_path, case: UseCase) -> None:
    bad = past_a_bound(case)
    assert bad is not None, "every use case here bounds a value (a limit, a depth, a name's length, a list)"
    name, value = bad
    args = {**required_values(case.request), name: value}

    method, path = case.rest.split(" ", 1)
    url = path.format(group=group_id, uuid=TARGET, record=OTHER, candidate=OTHER)
    where, _, _ = rest_parameters(openapi, case)
    sent: dict[str, Any] = {"query": {"params": args}, "json": {"json": args},
                            "form": {"data": args, "files": {"file": ("a.txt", b"Maya said hello.", "text/plain")}}}
    rest = client.request(method, url, headers=make_key([group_id]), **sent[where])
    assert rest.status_code == 422, rest.text
    assert rest.json()["error"]["code"] == "validation_error"
    assert [["query" if where == "query" else "body", name]] == [
        e["loc"] for e in rest.json()["error"]["details"]["errors"]]

    if not case.has_mcp:
        cli_refuses(case, name, args, group_id, tmp_path)
        return
    address = {a: group_id if a == "group" else (OTHER if a in ("record", "candidate") else TARGET)
               for a in MCP_ADDRESS[case.on]}
    tool_args = {**required_values(case.mcp_request or case.request), name: value}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": case.mcp, "arguments": {**address, **tool_args}}}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    answer = client.post("/mcp/", headers=headers, content=json.dumps(body)).json()["result"]
    said = answer["content"][0]["text"]
    assert answer["isError"] and "validation_error: " in said and name in said, said
    cli_refuses(case, name, args, group_id, tmp_path)


def cli_refuses(case: UseCase, name: str, args: dict[str, Any], group_id: str, tmp_path) -> None:
    """The CLI given ``args`` (``name``'s value past its bound) exits 2 naming the field."""
    from strata.api.cli import app

    argv = [*case.cli.split(), *cli_address(case, tmp_path)]
    fields = case.request.model_fields
    for arg in case.cli_arguments:
        if (fields[arg].alias or arg) in args:
            argv.append(str(args.pop(fields[arg].alias or arg)))
    for key, v in args.items():
        field = next(f for n, f in fields.items() if (f.alias or n) == key)
        argv += [f"--{key.replace('_', '-')}", json.dumps(v) if is_json(field) else str(v)]
    done = CliRunner().invoke(app, [*argv, "--group", group_id])
    assert done.exit_code == 2, done.output
    assert "does not match the API schema" in done.output and name in done.output, done.output


@pytest.mark.parametrize("name", sorted(UNBOUNDED))
def test_the_writes_without_a_bound_take_flags_only(name: str) -> None:
    """Not a gap in the test above: these requests have nothing to bound (a flag, a confirmation, or only the
    address)."""
    case = next(c for c in ALL if c.name == name)
    assert past_a_bound(case) is None
    assert all(f.annotation in (bool, Literal[True]) for f in case.request.model_fields.values())


@pytest.mark.parametrize("name", ["purge_retention", "purge_group"])
def test_an_unconfirmed_purge_is_refused_alike(client, make_key, group_id, name: str) -> None:
    """A purge without its confirmation (the one field of its request): REST answers 422 naming it, the CLI
    without --yes refuses it too (exit 2 naming it, or the message asking for --yes); neither is an MCP tool."""
    from strata.api.cli import app

    case = next(c for c in ALL if c.name == name)
    field = next(iter(case.request.model_fields))
    assert not case.has_mcp and "--yes" in case.cli_flags[field]
    method, path = case.rest.split(" ", 1)
    body = {"json": {}} if method == "POST" else {}
    rest = client.request(method, path.format(group=group_id), headers=make_key([group_id]), **body)
    assert rest.status_code == 422, rest.text
    assert [e["loc"][-1] for e in rest.json()["error"]["details"]["errors"]] == [field]
    where = [group_id] if case.cli == "purge group" else ["--group", group_id]  # its GROUP argument
    done = CliRunner().invoke(app, [*case.cli.split(), *where])
    assert done.exit_code != 0
    said = done.output + str(done.exception or "")
    assert (done.exit_code == 2 and field in said) or "--yes" in said, said


def test_a_cli_json_option_that_is_not_json_is_refused_as_a_bad_value(group_id) -> None:
    from strata.api.cli import app

    done = CliRunner().invoke(app, ["episodes", "add", "--content", "hi", "--metadata", "{oops", "--group", group_id])
    assert done.exit_code == 2, done.output
    assert "does not match the API schema" in done.output and "metadata" in done.output


def test_an_episode_added_from_the_cli_is_the_one_rest_adds(client, make_key, group_id, settings) -> None:
    """The CLI's JSON options reach the same model: the same chat episode (same agent) gets the same uuid."""
    from strata.api.cli import app

    messages = [{"speaker": "Maya", "text": "I moved to Lisbon.", "timestamp": "2024-01-10T10:00:00Z"}]
    metadata = {"thread": "t-1"}
    env = {"STRATA_NEO4J_URI": settings.neo4j_uri, "STRATA_REDIS_URL": settings.redis_url}
    done = CliRunner().invoke(app, ["episodes", "add", "--messages", json.dumps(messages), "--metadata",
                                    json.dumps(metadata), "--agent", "test", "--group", group_id, "--json"], env=env)
    assert done.exit_code == 0, done.output
    cli = json.loads(done.stdout)
    headers = make_key([group_id])  # its agent is the key's name, "test"
    shown = client.get(f"/v1/episodes/{cli['episode_uuid']}", headers=headers)
    assert shown.status_code == 200, shown.text
    assert shown.json()["kind"] == "chat"
    rest = client.post(f"/v1/groups/{group_id}/episodes", headers=headers,
                       json={"messages": messages, "metadata": metadata})
    assert rest.status_code == 202, rest.text
    assert rest.json()["episode_uuid"] == cli["episode_uuid"]  # its uuid hashes the messages and metadata too


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


def test_the_cli_gives_one_page_of_quotes_as_rest_does(client, make_key, group_id, settings) -> None:
    """With --limit (or --offset) the CLI answers the page REST answers instead of the whole listing."""
    from strata.api.cli import app

    rest = client.get(f"/v1/groups/{group_id}/quotes", params={"limit": 5}, headers=make_key([group_id]))
    assert rest.status_code == 200, rest.text
    env = {"STRATA_NEO4J_URI": settings.neo4j_uri, "STRATA_REDIS_URL": settings.redis_url}
    done = CliRunner().invoke(app, ["quotes", "--limit", "5", "--group", group_id, "--json"], env=env)
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout) == rest.json()
    assert set(rest.json()) >= {"items", "next_offset"}  # a page, not a line per quote

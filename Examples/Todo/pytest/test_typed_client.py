"""The to-do app through a typed client generated from its contract: states, inputs, action
bodies and snapshot cells are classes with attributes, not dictionaries."""

from __future__ import annotations

import importlib
import json
import urllib.request

from openapi_spec_validator import validate

from conftest import CONTRACT


def api(todo_client, name: str):
    """An operation module of the generated client (`create_session`, `get_todos_state`, …)."""
    for tag in ("app", "sessions"):
        try:
            return importlib.import_module(f"todo_client.api.{tag}.{name}")
        except ModuleNotFoundError:
            continue
    raise AssertionError(f"the generated client has no operation {name}")


def test_the_committed_contract_is_valid_openapi_and_the_one_served(server):
    committed = json.loads(CONTRACT.read_text())
    validate(committed)
    served = json.load(urllib.request.urlopen(f"{server.base}/openapi.json", timeout=10))
    assert served == committed, "run `Todo --contract > openapi.json`"


def test_states_inputs_and_actions_are_typed(server, todo_client):
    from todo_client.models import (SceneTodosActionAdd, SceneTodosCellTodo, SceneTodosInputPatch, SceneTodosSnapshot,
                                    SceneTodosState)

    client = todo_client.Client(base_url=server.base)
    session = api(todo_client, "create_session").sync(client=client).id

    state = api(todo_client, "get_todos_state").sync(session, client=client)
    assert isinstance(state, SceneTodosState)
    assert state.scene == "todos"
    assert state.output.remaining == 0

    added = api(todo_client, "perform_todos_add").sync(session, client=client, body=SceneTodosActionAdd(title="Milk"))
    assert added.output.count == 1
    assert added.output.remaining == 1

    filtered = api(todo_client, "set_todos_input").sync(session, client=client, body=SceneTodosInputPatch(show_done=False))
    assert filtered.input_.show_done is False
    assert filtered.output.remaining == 1

    snapshot = api(todo_client, "get_todos_snapshot").sync(session, client=client)
    assert isinstance(snapshot, SceneTodosSnapshot)
    [item] = snapshot.sections[0].items
    assert isinstance(item, SceneTodosCellTodo)
    assert (item.title, item.done) == ("Milk", False)


def test_refusals_are_typed_problems(server, todo_client):
    from todo_client.models import Problem, SceneTodosInputPatch

    client = todo_client.Client(base_url=server.base)
    refused = api(todo_client, "set_todos_input").sync("A" * 22, client=client, body=SceneTodosInputPatch(query="milk"))
    assert isinstance(refused, Problem)
    assert refused.status == 404
    assert refused.type_.endswith("/session-not-found")

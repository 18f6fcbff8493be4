"""The use-case table the front-ends are derived from names real things: each answer model is one strata.memory
exports, each method one Memory has, taking the request model, and each request model is frozen."""

from __future__ import annotations

import inspect
import re

import pytest
from pydantic import ValidationError

import strata.memory
from strata.api.usecases import READS, UseCase
from strata.memory import Memory

CASES = [pytest.param(case, id=case.name) for case in READS]


@pytest.mark.parametrize("case", CASES)
def test_a_row_names_its_answer_and_method(case: UseCase) -> None:
    answer = re.fullmatch(r"(?:list\[)?(\w+)\]?", case.answer)
    assert answer and isinstance(getattr(strata.memory, answer.group(1)), type)
    method = inspect.signature(getattr(Memory, case.run))
    params = list(method.parameters.values())
    assert params[-1].annotation in (case.request.__name__, case.request)
    assert len(params) == (4 if case.on == "entity" else 3)  # self, group, [uuid,] request


@pytest.mark.parametrize("case", CASES)
def test_a_request_is_frozen_and_its_defaults_valid(case: UseCase) -> None:
    required = {n: "x" for n, f in case.request.model_fields.items() if f.is_required()}
    ask = case.request.model_validate({(case.request.model_fields[n].alias or n): v for n, v in required.items()})
    with pytest.raises(ValidationError):
        setattr(ask, next(iter(case.request.model_fields)), None)


def test_every_front_end_name_is_used_once() -> None:
    for attr in ("name", "rest", "mcp", "cli"):
        names = [getattr(case, attr) for case in READS]
        assert len(names) == len(set(names)), attr

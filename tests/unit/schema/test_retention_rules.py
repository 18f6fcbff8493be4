"""Retention's pure rules: what a policy makes due at a time, and how salience decays."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from strata.schema.retention import (
    MAX_HALF_LIVES,
    RetentionPolicy,
    cutoffs,
    due,
    salience,
    salience_feature,
)

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def test_the_default_policy_makes_nothing_due() -> None:
    cut = cutoffs(RetentionPolicy(), NOW)
    assert cut.raw_text_before is cut.passages_before is cut.history_before is cut.half_life_days is None
    assert not due(datetime(1900, 1, 1, tzinfo=UTC), cut.raw_text_before)
    assert RetentionPolicy().keeps_everything and not RetentionPolicy(passages_days=3).keeps_everything


def test_passages_go_with_raw_text_whichever_is_stricter() -> None:
    raw = cutoffs(RetentionPolicy(raw_text_days=30), NOW)
    assert raw.raw_text_before == raw.passages_before == NOW - timedelta(days=30)
    both = cutoffs(RetentionPolicy(raw_text_days=30, passages_days=7), NOW)
    assert both.raw_text_before == NOW - timedelta(days=30) and both.passages_before == NOW - timedelta(days=7)
    only = cutoffs(RetentionPolicy(passages_days=7), NOW)
    assert only.raw_text_before is None and only.passages_before == NOW - timedelta(days=7)


def test_due_is_strictly_before_the_cutoff() -> None:
    cut = NOW - timedelta(days=30)
    assert due(cut - timedelta(seconds=1), cut) and not due(cut, cut) and not due(None, cut)


def test_salience_halves_per_half_life_since_last_use_and_is_floored() -> None:
    learned = NOW - timedelta(days=100)
    assert salience(None, learned, NOW, None) == 1.0  # no decay without a policy
    assert salience(NOW - timedelta(days=2), learned, NOW, 2.0) == pytest.approx(0.5)
    assert salience(None, NOW - timedelta(days=2), NOW, 1.0) == pytest.approx(0.25)  # never used: since learned
    assert salience(None, learned, NOW, 1.0) == pytest.approx(0.5 ** MAX_HALF_LIVES)
    assert salience(NOW + timedelta(days=1), learned, NOW, 1.0) == 1.0  # a clock ahead counts as just used
    assert salience_feature(1.0) == 0.0 and salience_feature(0.25) == pytest.approx(-2.0)


@pytest.mark.parametrize("fields", [{"raw_text_days": -1}, {"passages_days": 40, "raw_text_days": 30},
                                    {"salience_half_life_days": 0}, {"forget": True}, {"raw_text_days": 10 ** 6}])
def test_bad_policies_are_refused(fields: dict) -> None:
    with pytest.raises(ValidationError):
        RetentionPolicy(**fields)

"""The default ontology (schema/ontology.json): entity types, their coarse classes, predicates, synonyms."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from pydantic import Field, PrivateAttr

from strata.schema.errors import ConfigError
from strata.schema.models import Frozen, Functionality
from strata.schema.plan import Predicate

GENERIC_TYPES = frozenset({"entity", "thing_or_person", "unknown", "other", "misc", ""})


class EntityTypeDef(Frozen):
    name: str
    type_class: str
    description: str = ""
    synonyms: list[str] = Field(default_factory=list)


class RoleDef(Frozen):
    """An office's role (resolve/roles.py): the words that name it; ``concurrent`` when it has several holders
    at once (board member, minister)."""

    label: str
    synonyms: list[str] = Field(default_factory=list)
    concurrent: bool = False
    # predicate names that state this role ("lead", "head_of": the leader); "<role words>_of" needs no entry
    predicates: list[str] = Field(default_factory=list)
    # what holding it states: an office (holds_office with the role), or a position that is a relation of its own
    # ("Rovers' new striker" plays_for Rovers, "Acme's newest analyst" is employed_by Acme; no role kept)
    predicate: str = "holds_office"


class Ontology(Frozen):
    version: int = 1
    entity_types: dict[str, EntityTypeDef]
    predicates: dict[str, Predicate]
    roles: dict[str, RoleDef] = Field(default_factory=dict)
    _types: dict[str, str] = PrivateAttr(default_factory=dict)
    _preds: dict[str, str] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        # lookup indexes: any spelling of a type -> class, any predicate synonym -> predicate
        for name, tdef in self.entity_types.items():
            for form in (name, tdef.type_class, *tdef.synonyms):
                self._types[_fold(form)] = tdef.type_class
        for name, pdef in self.predicates.items():
            for form in (name, *pdef.synonyms):
                self._preds.setdefault(form, name)

    def type_class(self, type_name: str | None) -> str | None:
        """Coarse class of a type name; None for generic or unknown types (they match anything)."""
        folded = _fold(type_name or "")
        if folded in GENERIC_TYPES:
            return None
        return self._types.get(folded)

    @property
    def classes(self) -> frozenset[str]:
        """The coarse classes an entity key can name."""
        return frozenset(t.type_class for t in self.entity_types.values())

    def canonical_type(self, type_name: str | None) -> str:
        """Ontology type name for a synonym ("City" -> "Place"); unknown names come back unchanged."""
        cls = self.type_class(type_name)
        for name, tdef in self.entity_types.items():
            if tdef.type_class == cls:
                return name
        return type_name or "Entity"

    def canonical_predicate(self, name: str) -> str | None:
        """Ontology predicate for a normalized predicate name or one of its synonyms, else None."""
        return self._preds.get(name)

    def functional(self, predicate: str) -> Functionality | None:
        canonical = self.canonical_predicate(predicate)
        return self.predicates[canonical].functional if canonical else None


def _fold(text: str) -> str:
    return text.strip().casefold().replace(" ", "_").replace("-", "_")


def parse_ontology(data: dict[str, Any]) -> Ontology:
    try:
        types = {
            name: EntityTypeDef(name=name, type_class=body["class"], description=body.get("description", ""),
                                synonyms=body.get("synonyms", []))
            for name, body in data["entity_types"].items()
        }
        predicates = {
            name: Predicate(name=name, description=body.get("description", ""),
                            functional=body.get("functional"), synonyms=body.get("synonyms", []))
            for name, body in data["predicates"].items()
        }
        roles = {name: RoleDef.model_validate(body) for name, body in data.get("roles", {}).items()}
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"invalid ontology: {exc}", {"error": str(exc)}) from exc
    return Ontology(version=data.get("version", 1), entity_types=types, predicates=predicates, roles=roles)


@lru_cache(maxsize=1)
def load_ontology() -> Ontology:
    """The packaged default ontology; read once per process (the only I/O in resolve/)."""
    text = resources.files("strata.schema").joinpath("ontology.json").read_text(encoding="utf-8")
    return parse_ontology(json.loads(text))

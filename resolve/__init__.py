"""strata.resolve: entity resolution, predicate normalization and temporal rules. Pure: no I/O except
reading the packaged ontology, no database or queue imports; time-dependent functions take ``now``."""

from strata.resolve.clusters import UnionFind, canonical_name, collapse_mentions
from strata.resolve.decide import decide
from strata.resolve.evaluate import AliasRecord, ERReport, evaluate_aliases, parse_alias_cell
from strata.resolve.names import ParsedName, compare_names, given_compatible, parse_name
from strata.resolve.normalize import entity_key, fold_name, fold_text, type_class
from strata.resolve.ontology import Ontology, load_ontology, parse_ontology
from strata.resolve.predicates import fold_predicate, normalize_predicate, parse_predicate
from strata.resolve.scoring import MERGE_THRESHOLD, POSSIBLE_THRESHOLD, score_pair
from strata.resolve.temporal import (
    apply_negations,
    apply_updates,
    believed_invalid_at,
    compute_slot_timeline,
    holds,
    holds_in_story,
    is_believed_at,
    is_valid_at,
)
from strata.resolve.types import (
    CandidateEntity,
    Decision,
    MatchScore,
    MentionCandidate,
    MentionGroup,
    TemporalFact,
    TimelineUpdate,
)

__all__ = [
    "MERGE_THRESHOLD",
    "POSSIBLE_THRESHOLD",
    "AliasRecord",
    "CandidateEntity",
    "Decision",
    "ERReport",
    "MatchScore",
    "MentionCandidate",
    "MentionGroup",
    "Ontology",
    "ParsedName",
    "TemporalFact",
    "TimelineUpdate",
    "UnionFind",
    "apply_negations",
    "apply_updates",
    "believed_invalid_at",
    "canonical_name",
    "collapse_mentions",
    "compare_names",
    "compute_slot_timeline",
    "decide",
    "entity_key",
    "evaluate_aliases",
    "fold_name",
    "fold_predicate",
    "fold_text",
    "given_compatible",
    "holds",
    "holds_in_story",
    "is_believed_at",
    "is_valid_at",
    "load_ontology",
    "normalize_predicate",
    "parse_alias_cell",
    "parse_name",
    "parse_ontology",
    "parse_predicate",
    "score_pair",
    "type_class",
]

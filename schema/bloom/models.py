"""A Neo4j Bloom 2.x perspective as pydantic models, and the group schema it is generated from.

Field names follow Bloom's export format (camelCase through the alias generator); the shape was taken from
real exports (tests/unit/schema/bloom_export_shape.py names them). ``Perspective.to_bloom`` gives the JSON object.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_serializer
from pydantic.alias_generators import to_camel

Number = int | float  # Bloom writes whole sizes as integers
# Bloom's property data types as its exports spell them.
DataType = Literal["string", "number", "bigint", "boolean", "array", "DateTime", "Date", "LocalDateTime"]


def is_vector(name: str) -> bool:
    """Embeddings never enter a perspective: hundreds of floats are noise in an inspector."""
    return "embedding" in name.lower()


def _no_vector(name: str) -> str:
    if is_vector(name):
        raise ValueError(f"embedding property {name!r} may not appear in a perspective")
    return name


PropertyName = Annotated[str, AfterValidator(_no_vector)]


class BloomModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class OmitsNone(BloomModel):
    """Keys Bloom writes only when they have a value (a property caption's isGdsData, an "equals" rule's
    conditionValue) are left out when None."""
    omit_if_none: ClassVar[frozenset[str]] = frozenset()

    # No return annotation: the JSON schema (OpenAPI) then stays the model's own, not a bare object.
    @model_serializer(mode="wrap")
    def _drop_unset_optionals(self, handler):
        data = handler(self)
        for name in self.omit_if_none:
            for key in (name, to_camel(name)):
                if key in data and data[key] is None:
                    del data[key]
        return data


# --- the group's schema, as graph/bloom.py reads it ------------------------------------------------------

class TypeShare(BaseModel):
    name: str
    count: int = 0


class Segment(BaseModel):
    """A relationship type seen between two entity types in the group (Bloom's path segments)."""
    rel: str
    source: str
    target: str


class GroupBrowseSchema(BaseModel):
    group_id: str = Field(min_length=1, max_length=128)
    entity_types: list[TypeShare] = Field(default_factory=list)  # most frequent first
    predicates: list[TypeShare] = Field(default_factory=list)
    segments: list[Segment] = Field(default_factory=list)


# --- the perspective ------------------------------------------------------------------------------------

class CategoryProperty(BloomModel):
    name: PropertyName
    exclude: bool = False
    data_type: DataType


class Caption(OmitsNone):
    """A caption entry; ``type`` is label, relationship or property."""
    in_tooltip: bool
    styles: list[str] = Field(default_factory=list)
    is_caption: bool
    key: PropertyName
    type: Literal["label", "relationship", "property"]
    is_gds_data: bool | None = None  # property captions only
    omit_if_none: ClassVar[frozenset[str]] = frozenset({"is_gds_data"})


class StyleRule(OmitsNone):
    """A rule-based style of the "single" kind: one condition on one property, one colour and size."""
    id: str
    type: Literal["single"] = "single"
    based_on: str  # "<property>_<dataType>", as Bloom keys it
    condition: str
    condition_value: str | None = None
    color: str
    size: Number = 1
    min_size: Number = 1
    max_size: Number = 2
    min_color: str = "#D5EEE2"
    mid_color: str = "#81CCA8"
    max_color: str = "#428C6A"
    apply_color: bool = True
    apply_size: bool = False
    values_mapper: list[Any] = Field(default_factory=list)
    existing_values: list[Any] = Field(default_factory=list)
    omit_if_none: ClassVar[frozenset[str]] = frozenset({"condition_value"})


class Category(BloomModel):
    id: int
    name: str
    labels: list[str]
    properties: list[CategoryProperty]
    created_at: int
    last_edited_at: int
    color: str
    size: Number = 1
    icon: str = "no-icon"
    caption_keys: list[str] = Field(default_factory=list)
    captions: list[Caption]
    text_size: Number = 1
    text_align: Literal["top", "center", "bottom"] = "top"
    style_rules: list[StyleRule] = Field(default_factory=list)


class LabelProperty(BloomModel):
    """An entry of the perspective's ``labels`` map and of a relationship type's ``properties``."""
    property_key: PropertyName
    type: str
    data_type: DataType


class RelationshipType(BloomModel):
    id: str
    name: str
    properties: list[LabelProperty]
    color: str
    size: Number = 1
    caption_keys: list[str] = Field(default_factory=list)
    captions: list[Caption]
    text_size: Number = 1
    text_align: Literal["top", "center", "bottom"] = "top"
    style_rules: list[StyleRule] = Field(default_factory=list)


class Palette(BloomModel):
    colors: list[str]
    current_index: int


class TemplateParam(BloomModel):
    name: str  # "$name", with the dollar, as Bloom keys it
    data_type: Literal["String", "Integer", "Float", "Boolean", "Date", "DateTime", "LocalDateTime"] = "String"
    collapsed: bool = False
    suggestion_label: str | None = None
    suggestion_prop: str | None = None
    suggestion_boolean: bool = False
    cypher: str | None = None  # a query whose rows are the suggestions


class Template(BloomModel):
    """A search phrase: ``text`` is what the user types, ``name`` describes it."""
    name: str
    id: str
    created_at: int
    text: str
    cypher: str
    is_update_query: bool | None = None
    is_write_transaction_checked: bool | None = None
    params: list[TemplateParam] = Field(default_factory=list)
    has_cypher_errors: bool = False


class SceneAction(BloomModel):
    """Cypher run on the selection: ``$nodes`` / ``$relationships`` are the selected element ids."""
    name: str
    id: str
    created_at: int
    cypher: str
    is_update_query: bool | None = None
    categories: list[int] | None = None  # None: offered for every category
    relationship_types: list[str] | None = None
    has_cypher_errors: bool = False


class PathSegment(BloomModel):
    source: str
    relationship_type: str
    target: str


class IndexKey(BloomModel):
    key: str
    metadata_prop: bool = False


class IndexInfo(BloomModel):
    label: str | None
    type: Literal["native", "fulltext"] = "native"
    property_keys: list[IndexKey]


class Metadata(BloomModel):
    path_segments: list[PathSegment]
    indexes: list[IndexInfo]


class Perspective(BloomModel):
    name: str
    id: str
    categories: list[Category]
    labels: dict[str, list[LabelProperty]]
    relationship_types: list[RelationshipType]
    palette: Palette
    created_at: int
    last_edited_at: int
    templates: list[Template]
    scene_actions: list[SceneAction]
    hidden_relationship_types: list[str]
    hide_uncategorised_data: bool
    type: Literal["STANDARD_PERSPECTIVE"] = "STANDARD_PERSPECTIVE"
    max_limit_toast_msg_enabled: bool = False
    parent_perspective_id: str | None = None
    metadata: Metadata
    version: str

    def to_bloom(self) -> dict[str, Any]:
        """The JSON object Bloom's import expects."""
        return self.model_dump(mode="json", by_alias=True)

"""The structure of real Neo4j Bloom perspective exports: for each object kind, the keys every object of that
kind carries in the reference export, and the JSON types those keys took across the real exports below.
Structure only: no names, queries or data of those perspectives.

Reference exports (files committed to public GitHub repositories, each exported by Bloom itself):
- QTAC   halftermeyer/quant-temporal-asset-correlation perspective.json
         @4c07bbeda37e6db68f3452062374a95cff3b2fa7, Bloom 2.21.0: every kind except the two below
- SUPPLY neo4j-product-examples/supply-chain-logistics-demo part1-getting-started-gds-and-bloom/bloom-perspective.json
         @b85d830cd80bb830be2f9a96ffa0cc4197ff9195, Bloom 2.3.0: sceneAction (the newest export found with one)
- CYBER  neo4j-graph-examples/cybersecurity bloom/Windows_Domains.json
         @61e482241bdb16edc85b3e7a116dc381f434f4f3, Bloom 2.0.0: styleRule (the keys all its category rules share)
- HEALTH neo4j-graph-examples/healthcare-analytics "bloom/healthcare analytics perspective.json"
         @54550ace05153f94e4e7003f015999556a2e71e1, Bloom 2.4.0: types only
Types are the union over the four (e.g. a template parameter's suggestion query is null in QTAC, a string in
CYBER). "caption" is a category caption; a property caption also has isGdsData (boolean), a label caption not.
"""

from __future__ import annotations

# kind -> {key: JSON types seen}
SHAPE: dict[str, dict[str, list[str]]] = {
    "perspective": {
        "categories": ["array"], "createdAt": ["integer"], "hiddenRelationshipTypes": ["array"],
        "hideUncategorisedData": ["boolean"], "id": ["string"], "labels": ["object"], "lastEditedAt": ["integer"],
        "maxLimitToastMsgEnabled": ["boolean"], "metadata": ["object"], "name": ["string"],
        "palette": ["object"], "parentPerspectiveId": ["null", "string"], "relationshipTypes": ["array"],
        "sceneActions": ["array"], "templates": ["array"], "type": ["string"], "version": ["string"],
    },
    "category": {
        "captionKeys": ["array"], "captions": ["array"], "color": ["string"], "createdAt": ["integer"],
        "icon": ["string"], "id": ["integer"], "labels": ["array"], "lastEditedAt": ["integer"], "name": ["string"],
        "properties": ["array"], "size": ["integer", "number"], "styleRules": ["array"], "textAlign": ["string"],
        "textSize": ["integer"],
    },
    "categoryProperty": {"dataType": ["string"], "exclude": ["boolean"], "name": ["string"]},
    "caption": {"inTooltip": ["boolean"], "isCaption": ["boolean"], "key": ["string"], "styles": ["array"],
                "type": ["string"]},
    "labelProperty": {"dataType": ["string"], "propertyKey": ["string"], "type": ["string"]},
    "relationshipType": {
        "captionKeys": ["array"], "captions": ["array"], "color": ["string"], "id": ["string"], "name": ["string"],
        "properties": ["array"], "size": ["integer"], "styleRules": ["array"], "textAlign": ["string"],
        "textSize": ["integer"],
    },
    "relationshipProperty": {"dataType": ["string"], "propertyKey": ["string"], "type": ["string"]},
    "relationshipCaption": {"inTooltip": ["boolean"], "isCaption": ["boolean"], "key": ["string"],
                            "styles": ["array"], "type": ["string"]},
    "palette": {"colors": ["array"], "currentIndex": ["integer"]},
    "template": {
        "createdAt": ["integer"], "cypher": ["string"], "hasCypherErrors": ["boolean"], "id": ["string"],
        "isUpdateQuery": ["null"], "isWriteTransactionChecked": ["null"], "name": ["string"], "params": ["array"],
        "text": ["string"],
    },
    "templateParam": {
        "collapsed": ["boolean"], "cypher": ["null", "string"], "dataType": ["string"], "name": ["string"],
        "suggestionBoolean": ["boolean"], "suggestionLabel": ["null", "string"], "suggestionProp": ["null", "string"],
    },
    "sceneAction": {
        "categories": ["null"], "createdAt": ["integer"], "cypher": ["string"], "hasCypherErrors": ["boolean"],
        "id": ["string"], "isUpdateQuery": ["null"], "name": ["string"], "relationshipTypes": ["null"],
    },
    "styleRule": {
        "applyColor": ["boolean"], "applySize": ["boolean"], "basedOn": ["string"], "color": ["string"],
        "condition": ["string"], "id": ["string"], "maxColor": ["string"], "maxSize": ["integer"],
        "midColor": ["string"], "minColor": ["string"], "minSize": ["integer"], "size": ["integer"],
        "type": ["string"],
    },
    "metadata": {"indexes": ["array"], "pathSegments": ["array"]},
    "pathSegment": {"relationshipType": ["string"], "source": ["string"], "target": ["string"]},
    "index": {"label": ["null", "string"], "propertyKeys": ["array"], "type": ["string"]},
    "indexPropertyKey": {"key": ["string"], "metadataProp": ["boolean"]},
}

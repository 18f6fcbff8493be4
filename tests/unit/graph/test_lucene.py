from strata.graph.lucene import any_terms, escape, group_tag, in_group, on_fields, phrase, terms


def test_escape_neutralizes_every_operator() -> None:
    raw = 'a+b-c!(d){e}[f]^"g~h*i?j:k\\l/m'
    assert escape(raw) == 'a\\+b\\-c\\!\\(d\\)\\{e\\}\\[f\\]\\^\\"g\\~h\\*i\\?j\\:k\\\\l\\/m'
    assert escape("x && y || z") == "x \\&& y \\|| z"
    assert escape("bell\x07 tab\t") == "bell  tab "


def test_any_terms_drops_boolean_words_and_adds_fuzziness() -> None:
    assert terms("Darcy AND Elizabeth OR NOT x") == ["Darcy", "Elizabeth", "x"]
    assert any_terms("Lizzy Bennet", fuzzy=True) == "lizzy~1 OR bennet~1"
    assert any_terms("MATCH (n) DETACH DELETE n") == "match OR n OR detach OR delete OR n"
    assert any_terms("***") == ""


def test_phrase_quotes_safely() -> None:
    assert phrase('say "hi"') == '"say \\"hi\\""'


def test_group_tag_is_one_alphanumeric_token_for_every_allowed_group_character() -> None:
    tag = group_tag("team-a_b.c:d")
    assert tag == "grpteamx2dax5fbx2ecx3ad"
    assert tag.isalnum()
    assert len({group_tag("team-a"), group_tag("team_a"), group_tag("teama")}) == 3


def test_user_terms_stay_on_the_content_fields_and_the_group_is_a_filter() -> None:
    # Field syntax typed by a user is split into plain words, searched on the named fields only.
    assert on_fields(any_terms("group_tag:grpother x"), ("name",)) == "(name:(group_tag OR grpother OR x))"
    assert in_group("g-1", any_terms("Ada"), ("name", "aliases")) == \
        '+group_tag:"grpgx2d1"^0 +(name:(ada) OR aliases:(ada))'
    assert in_group("g-1", "", ("name",)) == ""


def test_stop_words_are_dropped_only_for_the_stemmed_indexes() -> None:
    assert any_terms("What did Maya paint in the spring?", drop_stop_words=True) == "maya OR paint OR spring"
    # A question's own words go too: "The Who" is left to the entity index, which keeps every word.
    assert any_terms("Where is The Who", drop_stop_words=True) == ""
    assert any_terms("Where is The Who") == "where OR is OR the OR who"
    assert any_terms("the of", drop_stop_words=True) == ""

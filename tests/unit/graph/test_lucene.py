from strata.graph.lucene import any_terms, escape, phrase, terms


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

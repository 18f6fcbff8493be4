"""The per-book consolidation rules (strata.resolve.consolidate), one written example each."""

from __future__ import annotations

from strata.resolve.consolidate import CastMember, Marriage, Reply, consolidate


def member(uuid: str, name: str, *aliases: str, episodes: range | list[int] = range(1), first: int = 0) -> CastMember:
    return CastMember(uuid=uuid, name=name, aliases=list(aliases), episodes=list(episodes), first_position=first)


def pairs(plan) -> set[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    return {(m.from_uuid, m.into_uuid, m.rule.split(":")[0]) for m in plan.merges}


def test_a_first_name_introduced_with_its_surname_joins_it() -> None:
    plan = consolidate([member("full", "Charlotte Lucas", episodes=range(5), first=10),
                        member("bare", "Charlotte", episodes=range(3, 9), first=20)])
    assert pairs(plan) == {("full", "bare", "name")}  # the smaller joins the more mentioned
    assert plan.merges[0].forms == ["Charlotte Lucas"]


def test_a_first_name_seen_before_the_full_name_stays_apart() -> None:
    # "Mary" of the first chapter is not the "Mary King" of the twentieth
    plan = consolidate([member("mary", "Mary", episodes=range(20), first=0),
                        member("king", "Mary King", episodes=[40], first=4000)])
    assert plan.merges == []


def test_a_diminutive_joins_the_full_given_name() -> None:
    plan = consolidate([member("eliz", "Elizabeth", "Elizabeth Bennet", episodes=range(50)),
                        member("eliza", "Eliza", episodes=range(40, 45), first=100)])
    assert pairs(plan) == {("eliza", "eliz", "name")}


def test_a_name_fitting_two_people_is_not_merged() -> None:
    # "Caroline Bingley" fits the bare "Bingley" and "Miss Bingley": the bare one is Mrs. Bingley, who
    # conflicts with Miss Bingley, so the full name joins neither by the unique-match rule
    plan = consolidate([member("mrsb", "Bingley", "Mrs. Bingley", episodes=range(13)),
                        member("cb", "Caroline Bingley", episodes=range(11)),
                        member("missb", "Miss Bingley", episodes=range(30))])
    assert ("cb", "mrsb", "name") not in pairs(plan) and ("mrsb", "cb", "name") not in pairs(plan)


def test_title_and_surname_join_the_only_full_name_of_that_gender() -> None:
    plan = consolidate([member("mr", "Mr. Bingley", episodes=range(40)),
                        member("charles", "Charles Bingley", episodes=range(2)),
                        member("miss", "Miss Bingley", episodes=range(30))])
    assert pairs(plan) == {("charles", "mr", "title_surname")}


def test_a_bare_surname_joins_its_only_holder_or_the_only_man() -> None:
    plan = consolidate([member("hill", "Hill", episodes=range(2)), member("mrs", "Mrs. Hill", episodes=range(3))])
    assert pairs(plan) == {("hill", "mrs", "name")}  # the only holder: a plain name match
    family = [member("g", "Gardiner", episodes=range(4)), member("mr", "Mr. Gardiner", episodes=range(20)),
              member("mrs", "Mrs. Gardiner", episodes=range(25))]
    assert pairs(consolidate(family)) == {("g", "mr", "bare_surname")}


def test_mr_and_mrs_and_miss_of_one_surname_never_merge() -> None:
    plan = consolidate([member("mr", "Mr. Bennet", episodes=range(30)),
                        member("mrs", "Mrs. Bennet", episodes=range(40)),
                        member("miss", "Miss Bennet", episodes=range(20))])
    assert plan.merges == []


def test_two_given_names_with_one_surname_never_merge() -> None:
    plan = consolidate([member("j", "Jane Bennet", episodes=range(30)),
                        member("e", "Elizabeth Bennet", episodes=range(40)),
                        member("b", "Bennet", "Mrs. Bennet", episodes=range(10))])
    assert not {(a, b) for a, b, _ in pairs(plan)} & {("j", "e"), ("e", "j")}


def test_a_married_name_is_the_one_woman_married_to_the_only_man_of_that_surname() -> None:
    cast = [member("mr", "Mr. Collins", episodes=range(30)), member("ch", "Charlotte Lucas", episodes=range(20)),
            member("mrs", "Mrs. Collins", episodes=range(25, 40), first=500)]
    plan = consolidate(cast, [Marriage(a="mr", b="ch", position=400)])
    assert pairs(plan) == {("mrs", "ch", "married_name")}
    # stated after the married name first appears: no evidence
    assert consolidate(cast, [Marriage(a="mr", b="ch", position=900)]).merges == []
    # two women married (or engaged) to him: a suggestion, no merge
    two = cast + [member("w", "Maria Lucas", episodes=range(3))]
    plan = consolidate(two, [Marriage(a="mr", b="ch", position=400), Marriage(a="w", b="mr", position=300)])
    assert plan.merges == [] and {s.candidate_uuid for s in plan.suggestions} == {"ch", "w"}


def test_miss_surname_is_the_sister_it_shares_episodes_with_beyond_chance() -> None:
    everywhere = range(100)
    cast = [member("miss", "Miss Lucas", episodes=[10, 11, 12, 13, 14, 15]),
            member("ch", "Charlotte Lucas", episodes=[10, 11, 12, 13, 14, 50]),
            member("maria", "Maria Lucas", episodes=[14, 60, 61, 62, 63, 64]),
            member("other", "Elizabeth", episodes=everywhere)]
    assert pairs(consolidate(cast)) == {("miss", "ch", "miss_surname")}
    # no clear sister (same sharing): a suggestion only
    tie = [member("miss", "Miss Lucas", episodes=[1, 2, 3, 4]), member("a", "Ann Lucas", episodes=[1, 2, 3, 9]),
           member("b", "Mary Lucas", episodes=[2, 3, 4, 8]), member("x", "Elizabeth", episodes=everywhere)]
    plan = consolidate(tie)
    assert plan.merges == [] and {s.rule for s in plan.suggestions} == {"miss_surname"}


def test_a_name_spoken_to_joins_whoever_answers_it() -> None:
    cast = [member("voc", "Caroline", episodes=range(5)), member("miss", "Miss Bingley", episodes=range(30)),
            member("eliz", "Elizabeth", episodes=range(50))]
    replies = [Reply(addressed="voc", replier="miss")] * 3 + [Reply(addressed="voc", replier="eliz")]
    assert pairs(consolidate(cast, replies=replies)) == {("voc", "miss", "vocative_reply")}
    # the name mostly answers itself: not a nickname of anyone else
    mixed = replies + [Reply(addressed="voc", replier="voc")] * 3
    assert consolidate(cast, replies=mixed).merges == []


def test_the_pass_is_idempotent_on_its_own_result() -> None:
    cast = [member("full", "Charlotte Lucas", episodes=range(5)),
            member("bare", "Charlotte", episodes=range(3, 9), first=1),
            member("miss", "Miss Lucas", episodes=[1, 2, 3, 4]), member("x", "Elizabeth", episodes=range(100))]
    plan = consolidate(cast)
    survivors = {m.into_uuid for m in plan.merges} | {c.uuid for c in cast} - {m.from_uuid for m in plan.merges}
    merged_forms: dict[str, list[str]] = {c.uuid: [c.name, *c.aliases] for c in cast}
    episodes: dict[str, set[int]] = {c.uuid: set(c.episodes) for c in cast}
    for m in plan.merges:
        merged_forms[m.into_uuid] += m.forms
        episodes[m.into_uuid] |= episodes[m.from_uuid]
    again = [member(u, merged_forms[u][0], *merged_forms[u][1:], episodes=sorted(episodes[u])) for u in survivors]
    assert consolidate(again).merges == []


def test_a_titled_full_name_joins_the_far_more_mentioned_of_its_forms() -> None:
    # "Lady Catherine de Bourgh" matches "Lady Catherine" and a stray "Catherine de Bourgh"; "Miss de Bourgh"
    # (her daughter, another title on the surname) is no rival
    plan = consolidate([member("lcdb", "Lady Catherine de Bourgh", episodes=range(17)),
                        member("lc", "Lady Catherine", episodes=range(25)),
                        member("cdb", "Catherine de Bourgh", episodes=[1, 2]),
                        member("miss", "Miss de Bourgh", episodes=range(13))])
    merged = pairs(plan)
    assert ("lcdb", "lc", "name") in merged
    assert not any("miss" in (a, b) for a, b, _ in merged)


def test_an_entity_holding_a_nickname_does_not_join_a_rank() -> None:
    # "Catherine" + "Kitty" (Kitty Bennet) matches "Lady Catherine" through "Catherine" only
    plan = consolidate([member("lc", "Lady Catherine", episodes=range(25)),
                        member("kit", "Catherine", "Kitty", episodes=range(4))])
    assert plan.merges == []


def test_an_untitled_full_name_keeps_its_family_rival() -> None:
    # "Caroline Bingley" also fits "Miss Bingley" (0.75): joining a bare "Bingley" would be a guess
    plan = consolidate([member("cb", "Caroline Bingley", episodes=range(3)),
                        member("b", "Bingley", episodes=range(20)),
                        member("miss", "Miss Bingley", episodes=range(30))])
    assert ("cb", "b", "name") not in pairs(plan)


def test_entities_already_holding_one_name_join_whatever_a_weaker_match_says() -> None:
    # "Sikes", "Mr. Sikes" and "Bill Sikes" all hold "Sikes" and can be one man; "Bister Sikes" (a dialect
    # "Mister") conflicts with "Bill Sikes" by given name, which kept the name rule from joining them (issue 30)
    plan = consolidate([member("bare", "Sikes", episodes=range(26)),
                        member("mr", "Mr. Sikes", "Sikes", episodes=range(20, 41)),
                        member("bill", "Bill Sikes", "Sikes", episodes=range(40, 44)),
                        member("bister", "Bister Sikes", episodes=[50])])
    assert ("mr", "bare", "name") in pairs(plan)
    assert all("bister" not in (m.from_uuid, m.into_uuid) for m in plan.merges)


def test_a_name_one_entity_holds_does_not_override_a_conflicting_family() -> None:
    # only Mrs. Bennet holds "Bennet" and Mr. Bennet is there too: one holder is no evidence against him, so the
    # name does not join her by it (the bare-surname rule's "only man" decides, as before)
    plan = consolidate([member("bare", "Bennet", episodes=range(10)),
                        member("mrs", "Mrs. Bennet", "Bennet", episodes=range(5, 40)),
                        member("mr", "Mr. Bennet", episodes=range(8, 50))])
    assert ("bare", "mrs", "name") not in pairs(plan) and ("mrs", "bare", "name") not in pairs(plan)


def test_a_family_form_joins_the_only_full_name_of_its_gender_whatever_bare_forms_it_holds() -> None:
    # "Mr. Sikes" also holds "Sikes" and a clipped "Mr. Sike": a bare surname matches the full name better than
    # the title does, which the plain title rule cannot see past
    cast = [member("mr", "Mr. Sikes", "Sikes", "Mr. Sike", episodes=range(10)),
            member("bill", "Bill Sikes", "Bill", episodes=range(5, 30)),
            member("nancy", "Nancy", episodes=range(20))]
    assert ("mr", "bill", "title_surname") in pairs(consolidate(cast))
    # a daughter's title: "Miss Smith" (and a plural the extractor left) is the only woman named Smith in full
    girls = [member("miss", "Miss Smith", "Miss Smiths", episodes=range(8)),
             member("harriet", "Harriet Smith", episodes=range(5, 40)),
             member("robert", "Robert Smith", episodes=range(3))]
    assert ("miss", "harriet", "title_surname") in pairs(consolidate(girls))


def test_a_family_form_stays_apart_when_the_full_name_is_not_the_only_one_or_shares_no_scene() -> None:
    two_men = [member("mr", "Mr. Sikes", "Sikes", episodes=range(10)),
               member("bill", "Bill Sikes", episodes=range(5, 30)),
               member("tom", "Tom Sikes", episodes=range(5, 30))]
    assert not any(r == "title_surname" for *_, r in pairs(consolidate(two_men)))
    # the only full name of the surname, but in no scene with the family form: nothing says they meet
    apart = [member("mr", "Mr. Sikes", "Sikes", episodes=range(40)),
             member("bill", "Bill Sikes", episodes=range(50, 53))]
    assert not any(r == "title_surname" for *_, r in pairs(consolidate(apart)))
    # a full name of unknown gender as present as the one known could be the one meant
    unknown = [member("mr", "Mr. Sikes", "Sikes", episodes=range(10)),
               member("bill", "Bill Sikes", episodes=range(5, 30)),
               member("x", "Q. Sikes", episodes=range(5, 25))]
    assert not any(r == "title_surname" for *_, r in pairs(consolidate(unknown)))
    # "Miss" is no title of a woman named under a married or courtesy title
    lady = [member("miss", "Miss Darcy", episodes=range(5)),
            member("anne", "Lady Anne Darcy", episodes=range(2, 30))]
    assert not any(r == "title_surname" for *_, r in pairs(consolidate(lady)))


def test_a_coordinated_phrase_is_no_name_a_person_shares() -> None:
    # "Oliver and Sikes" as a stray alias of Oliver: it holds no surname another Sikes could be matched through
    cast = [member("mr", "Mr. Sikes", "Sikes", episodes=range(10)),
            member("bill", "Bill Sikes", episodes=range(5, 30)),
            member("oliver", "Oliver", "Oliver and Sikes", episodes=range(40))]
    assert ("mr", "bill", "title_surname") in pairs(consolidate(cast))


def test_a_title_before_a_given_name_joins_the_only_person_named_so_in_full() -> None:
    cast = [member("mrs", "Mrs. Rachel", "Rachel", episodes=range(6)),
            member("lynde", "Rachel Lynde", episodes=range(3, 30)),
            member("thomas", "Thomas Lynde", episodes=range(4))]
    assert ("mrs", "lynde", "title_given") in pairs(consolidate(cast))


def test_a_title_before_a_word_that_is_someone_s_surname_or_two_people_s_given_name_stays() -> None:
    surname = [member("mr", "Mr. Darcy", episodes=range(3)),
               member("vane", "Darcy Vane", episodes=range(40)),
               member("fitz", "Fitzwilliam Darcy", episodes=range(2))]
    assert not any(r == "title_given" for *_, r in pairs(consolidate(surname)))
    two = [member("mr", "Mr. Thaddeus", episodes=range(3)),
           member("a", "Thaddeus Sholto", episodes=range(40)),
           member("b", "Thaddeus Small", episodes=range(30))]
    assert not any(r == "title_given" for *_, r in pairs(consolidate(two)))


def test_a_family_form_joins_the_only_full_name_of_its_surname_whose_gender_the_names_do_not_tell() -> None:
    # "Toby" is a first name of either gender: alone of its surname, "Toby Crackit" is the one "Mr. Crackit" means
    cast = [member("mr", "Mr. Crackit", "Crackit", episodes=range(8)),
            member("toby", "Toby Crackit", episodes=range(4, 20))]
    assert ("mr", "toby", "title_surname") in pairs(consolidate(cast))
    # beside a second full name of that surname, nothing tells which
    cast.append(member("jo", "Jordan Crackit", episodes=range(4, 20)))
    assert not any(r == "title_surname" for *_, r in pairs(consolidate(cast)))


def test_a_family_form_joins_the_only_full_name_however_less_present() -> None:
    # one policy for every family title: "Mr. Phillips" (the schoolmaster the book calls so throughout) and the
    # "Teddy Phillips" a scene names once are one man, as "Mr. Bingley" and "Charles Bingley" are
    cast = [member("mr", "Mr. Phillips", "Phillips", episodes=range(13)),
            member("teddy", "Teddy Phillips", episodes=[12])]
    assert pairs(consolidate(cast)) == {("teddy", "mr", "title_surname")}


def test_a_family_form_passes_over_a_man_the_book_tells_apart_by_his_given_name() -> None:
    # "Mr. John Knightley" is written with his given name, never as a bare "Mr. Knightley": the bare title means
    # the other Knightley named in full
    cast = [member("mr", "Mr. Knightley", "Knightley", episodes=range(40)),
            member("george", "George Knightley", episodes=[3, 4]),
            member("john", "John Knightley", "Mr. John Knightley", episodes=range(30, 36))]
    assert ("george", "mr", "title_surname") in pairs(consolidate(cast))
    # a member written both ways is not told apart: "Miss Josephine Barry" is also "Miss Barry"
    barry = [member("miss", "Miss Barry", episodes=range(4)),
             member("diana", "Diana Barry", episodes=range(40)),
             CastMember(uuid="jo", name="Josephine Barry", aliases=["Miss Josephine Barry"], episodes=[1, 2],
                        form_episodes={"Miss Josephine Barry": 1, "Miss Barry": 1})]
    assert not any(r == "title_surname" for *_, r in pairs(consolidate(barry)))


def test_miss_is_a_woman_whose_only_other_title_is_a_kin_word() -> None:
    # "Aunt Emma" (her nephews' word) says nothing of a marriage; "Lady Anne" does
    cast = [member("miss", "Miss Woodhouse", episodes=range(10)),
            member("emma", "Emma Woodhouse", "Emma", "Aunt Emma", episodes=range(5, 60))]
    assert pairs(consolidate(cast)) == {("miss", "emma", "title_surname")}


def test_a_title_before_a_shorter_form_the_survivor_writes_fuller_joins_it() -> None:
    # "Miss Cuthbert" against "Marilla Cuthbert", who is also written "Miss Marilla Cuthbert"; Matthew is a man
    cast = [member("miss", "Miss Cuthbert", episodes=range(4)),
            member("marilla", "Marilla Cuthbert", "Marilla", "Miss Marilla Cuthbert", episodes=range(90)),
            member("matthew", "Matthew Cuthbert", "Matthew", episodes=range(70))]
    assert ("miss", "marilla", "name") in pairs(consolidate(cast))


def test_a_title_before_an_initial_joins_the_only_one_written_so() -> None:
    cast = [member("e", "Mr. E.", episodes=[5, 6]), member("elton", "Mr. Elton", "Elton", episodes=range(60)),
            member("weston", "Mr. Weston", episodes=range(50))]
    assert pairs(consolidate(cast)) == {("e", "elton", "title_initial")}
    # "Mr. B" among several men whose surnames begin so stays itself
    many = [member("b", "Mr. B", episodes=[5, 6]), member("br", "Mr. Brownlow", episodes=range(60)),
            member("bu", "Mr. Bumble", episodes=range(50))]
    assert consolidate(many).merges == []


def test_a_title_form_one_entity_holds_joins_it_whatever_the_family_named_in_full() -> None:
    # "Miss Barry" is held by Josephine Barry: the daughter "Diana Barry" shares only the surname, no rival
    cast = [member("miss", "Miss Barry", episodes=range(4)),
            member("jo", "Josephine Barry", "Miss Josephine Barry", "Miss Barry", episodes=range(2, 8)),
            member("diana", "Diana Barry", "Diana", episodes=range(70))]
    assert ("miss", "jo", "name") in pairs(consolidate(cast))


def test_a_family_form_joins_full_names_that_are_one_person_and_they_follow() -> None:
    # "Tom Chitling" and "Tommy Chitling" (held by "Tom") may be one man: "Mr. Chitling" is him, and the full
    # name the survivor holds up to a diminutive fits it, whatever the survivor's own name says less
    cast = [member("mr", "Mr. Chitling", "Chitling", episodes=range(7)),
            member("tom", "Tom", "Tommy", "Tommy Chitling", episodes=range(3, 7)),
            member("full", "Tom Chitling", episodes=[1])]
    merged = pairs(consolidate(cast))
    assert ("tom", "mr", "title_surname") in merged and ("full", "mr", "name") in merged
    # two given names that differ are two men: nothing joins
    two = [member("mr", "Mr. Chitling", "Chitling", episodes=range(7)),
           member("tom", "Tom Chitling", episodes=range(3, 7)), member("bob", "Bob Chitling", episodes=[1])]
    assert not any(r == "title_surname" for *_, r in pairs(consolidate(two)))


def test_charley_is_a_form_of_charles() -> None:
    plan = consolidate([member("master", "Master Bates", "Master Charles Bates", episodes=range(15)),
                        member("charley", "Charley Bates", "Charley", "Master Charley Bates", episodes=range(28))])
    assert pairs(plan) == {("master", "charley", "name")}


def test_a_title_before_a_given_name_no_list_knows_joins_the_only_one_so_named() -> None:
    # "Sherlock" is in no list of given names: alone of its given name, "Sherlock Holmes" is the one
    cast = [member("mr", "Mr. Sherlock", episodes=range(3)), member("sh", "Sherlock Holmes", episodes=range(60))]
    assert pairs(consolidate(cast)) == {("mr", "sh", "title_given")}
    cast.append(member("sv", "Sherlock Vane", episodes=range(50, 55)))
    assert not any(r == "title_given" for *_, r in pairs(consolidate(cast)))
    # a word another member bears as a titled surname is a surname: "Mrs. Hughes" is not "Hughes Ivor"
    wife = [member("mrs", "Mrs. Hughes", episodes=range(3)), member("dr", "Dr. Hughes", episodes=range(2, 6)),
            member("h", "Hughes Ivor", episodes=range(60))]
    assert not any(r == "title_given" for *_, r in pairs(consolidate(wife)))


def test_a_clipped_family_form_and_a_trailing_pronoun_are_the_same_name() -> None:
    # "Mr. Dawkin" (clipped) holding "Mr. Dawkins" is the family form of "Jack Dawkins"
    clipped = [member("mr", "Mr. Dawkin", "Mr. Dawkins", "Dawkins", episodes=range(5)),
               member("jack", "Jack Dawkins", "Jack", episodes=range(3, 9))]
    assert pairs(consolidate(clipped)) == {("mr", "jack", "title_surname")}
    # "Miss Bingley I" (the speaker's next word taken in) is "Miss Bingley"
    pronoun = [member("miss", "Miss Bingley", "Miss Bingley I", episodes=range(35)),
               member("caroline", "Caroline", "Caroline Bingley", episodes=range(30, 40))]
    assert pairs(consolidate(pronoun)) == {("caroline", "miss", "title_surname")}

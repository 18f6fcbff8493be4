// Search reads passages through their context indexes (0012) alone: the indexes over a passage's own text and
// vector are no longer asked, so they are dropped (the properties stay: the ranker scores each hit with its
// own vector too).
DROP INDEX passage_text IF EXISTS;
DROP INDEX passage_embedding IF EXISTS;

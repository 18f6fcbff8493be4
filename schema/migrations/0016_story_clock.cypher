// Story clock (docs/story-time.md): a read "as of the end of chapter n" finds where the chapter ends among the
// book's episodes.
CREATE INDEX episode_source_chapter IF NOT EXISTS FOR (e:Episode) ON (e.source_uuid, e.chapter_index);

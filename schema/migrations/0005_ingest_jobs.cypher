// Batch jobs: episodes by job, jobs by source (duplicate submissions), the stuck sweep by start time.
CREATE INDEX episode_job IF NOT EXISTS FOR (n:Episode) ON (n.job_uuid);
CREATE INDEX episode_status_started IF NOT EXISTS FOR (n:Episode) ON (n.status, n.started_at);
CREATE INDEX job_source IF NOT EXISTS FOR (n:Job) ON (n.source_uuid);
CREATE INDEX job_group IF NOT EXISTS FOR (n:Job) ON (n.group_id);

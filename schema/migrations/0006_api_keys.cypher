// API keys are looked up by their public id; the secret is stored only as a hash.
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (n:ApiKey) REQUIRE n.id IS UNIQUE;

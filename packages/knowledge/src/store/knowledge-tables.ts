/**
 * The knowledge base's schema and tables, for a service's set-up to run with its others (as
 * webhookTablesMigration), as one query: several services may share the schema, so it takes a lock
 * of the schema's own. An article's passages are rows of their own, each with a
 * tsvector in the article's text search configuration (`config`): its title weighted A, its heading
 * B, its text D, generated from the row, so no writer can store one out of step with its text.
 * Slugs sort bytewise (COLLATE "C"), as the memory store and a listing's `after` do.
 * `knowledge_configs`: the configurations passages were ever written in, which a search makes its
 * query in (a few, where all PostgreSQL has are two dozen).
 * `knowledge_lexemes`: how many passages of each configuration hold each lexeme, kept by the writes,
 * so that a search leaves out the words no passage holds and the common ones (see
 * postgres-query-words.ts); counted once from the passages for tables made before it.
 */
export function knowledgeTablesMigration(schema: string): string {
  const articles = `"${schema}"."knowledge_articles"`;
  const passages = `"${schema}"."knowledge_passages"`;
  const lexemes = `"${schema}"."knowledge_lexemes"`;
  const configs = `"${schema}"."knowledge_configs"`;
  // Services sharing the schema set it up under their own set-up locks; this one is the schema's,
  // held to the end of the statements' one transaction (CREATE … IF NOT EXISTS races otherwise).
  return `
    SELECT pg_advisory_xact_lock(hashtext('${schema}.knowledge_setup'));
    CREATE SCHEMA IF NOT EXISTS "${schema}";
    CREATE TABLE IF NOT EXISTS ${articles} (
      slug text COLLATE "C" PRIMARY KEY,
      title text NOT NULL,
      body text NOT NULL,
      language text NOT NULL,
      tags text[] NOT NULL,
      hash text NOT NULL,
      updated_at timestamptz NOT NULL,
      source text NOT NULL DEFAULT 'api'
    );
    -- Tables made before sources were kept held folder articles only.
    ALTER TABLE ${articles} ADD COLUMN IF NOT EXISTS source text NOT NULL DEFAULT 'file';
    CREATE TABLE IF NOT EXISTS ${passages} (
      slug text COLLATE "C" NOT NULL REFERENCES ${articles} (slug) ON DELETE CASCADE,
      position int NOT NULL,
      language text NOT NULL,
      config regconfig NOT NULL,
      title text NOT NULL,
      heading text,
      text text NOT NULL,
      tsv tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector(config, title), 'A')
          || setweight(to_tsvector(config, coalesce(heading, '')), 'B')
          || setweight(to_tsvector(config, text), 'D')
      ) STORED,
      PRIMARY KEY (slug, position)
    );
    CREATE INDEX IF NOT EXISTS knowledge_passages_tsv ON ${passages} USING gin (tsv)
      WITH (fastupdate = off);
    -- Written rarely, searched often: a search reads GIN's whole pending list (up to 4 MB) until
    -- a vacuum merges it, so rows go straight into the index (as for indexes made before: merged).
    ALTER INDEX "${schema}".knowledge_passages_tsv SET (fastupdate = off);
    SELECT gin_clean_pending_list('"${schema}".knowledge_passages_tsv'::regclass);
    CREATE TABLE IF NOT EXISTS ${configs} (config regconfig PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS ${lexemes} (
      lexeme text COLLATE "C" NOT NULL,
      config regconfig NOT NULL,
      passages int NOT NULL,
      PRIMARY KEY (lexeme, config)
    );
    -- Empty while passages exist only when the table is new beside older passages: count them.
    INSERT INTO ${lexemes} (lexeme, config, passages)
      SELECT w.lexeme, p.config, count(*)
      FROM ${passages} AS p CROSS JOIN unnest(p.tsv) AS w
      WHERE NOT EXISTS (SELECT FROM ${lexemes})
      GROUP BY w.lexeme, p.config;
    -- A table never analyzed is costed as ten pages of rows: a search of an empty knowledge base
    -- was planned past jit_above_cost, so each one was compiled (milliseconds) before it ran.
    DO $$ BEGIN
      IF (SELECT reltuples < 0 FROM pg_class WHERE oid = '${configs}'::regclass) THEN
        ANALYZE ${configs};
      END IF;
      IF (SELECT reltuples < 0 FROM pg_class WHERE oid = '${lexemes}'::regclass) THEN
        ANALYZE ${lexemes};
      END IF;
    END $$;`;
}

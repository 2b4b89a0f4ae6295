// Runs SQL statements in DuckDB (the npm package @duckdb/node-api, from the directory given)
// and prints the rows of each as JSON, a list of lists (BIGINT as strings, BLOB as DuckDB's
// escaped string: select hex() of it). usage: node duckdb_query.js NODE_MODULES_PARENT SQL...
'use strict';
const { createRequire } = require('module');
const path = require('path');

async function main() {
  const req = createRequire(path.join(path.resolve(process.argv[2]), 'package.json'));
  const { DuckDBInstance } = req('@duckdb/node-api');
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  const results = [];
  for (const sql of process.argv.slice(3)) {
    const r = await con.runAndReadAll(sql);
    results.push(r.getRowObjectsJson());
  }
  process.stdout.write(JSON.stringify(results) + '\n');
}
main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + '\n');
  process.exit(1);
});

#!/usr/bin/env node
// Runs the Khronos glTF validator (npm gltf-validator, a library) on one .glb/.gltf file: prints the
// report's issues as JSON and exits 1 when it has errors, 2 when the file cannot be validated.
const fs = require('fs');
const path = require('path');
const validator = require(path.join(__dirname, 'node_modules', 'gltf-validator'));
const file = process.argv[2];
if (!file) {
  console.error('usage: node validate.js FILE.glb');
  process.exit(2);
}
validator.validateBytes(new Uint8Array(fs.readFileSync(file)), { maxIssues: 100 }).then((report) => {
  console.log(JSON.stringify(report.issues, null, 1));
  process.exit(report.issues.numErrors > 0 ? 1 : 0);
}).catch((e) => {
  console.error(String(e));
  process.exit(2);
});

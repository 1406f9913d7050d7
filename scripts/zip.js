// Just enough of the zip format to read a .vsix back (stored and deflated entries, from the central
// directory), so packaging checks need no unzip program and no extra dependency.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

/** The entries of a zip: name, uncompressed size, and where its data lives. */
function listZip(buffer) {
  let end = buffer.length - 22;
  while (end >= 0 && buffer.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('not a zip file: no end of central directory');
  const count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (buffer.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt zip: bad central directory entry');
    const method = buffer.readUInt16LE(at + 10);
    const compressed = buffer.readUInt32LE(at + 20);
    const size = buffer.readUInt32LE(at + 24);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const local = buffer.readUInt32LE(at + 42);
    const name = buffer.toString('utf8', at + 46, at + 46 + nameLength);
    entries.push({ name, size, method, compressed, local });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Writes every entry of the zip under `dir`, refusing names that would land outside it. */
function extractZip(buffer, dir) {
  for (const entry of listZip(buffer)) {
    const target = path.resolve(dir, entry.name);
    if (!target.startsWith(path.resolve(dir) + path.sep))
      throw new Error(`zip entry outside the folder: ${entry.name}`);
    if (entry.name.endsWith('/')) continue;
    const nameLength = buffer.readUInt16LE(entry.local + 26);
    const extraLength = buffer.readUInt16LE(entry.local + 28);
    const start = entry.local + 30 + nameLength + extraLength;
    const data = buffer.subarray(start, start + entry.compressed);
    const bytes = entry.method === 8 ? zlib.inflateRawSync(data) : entry.method === 0 ? data : undefined;
    if (!bytes) throw new Error(`unsupported zip method ${entry.method} for ${entry.name}`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, bytes);
  }
}

module.exports = { listZip, extractZip };

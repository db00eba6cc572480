// The V8 settings the axsim CLI gives its own process (bin/axsim.js applies them before anything
// else is loaded). A CLI command is a short-lived process whose work (preprocessing, parsing and
// evaluating C++ kernels; emulating) runs through much code a few thousand times: at V8's default
// tier-up budget the optimising compiler compiles that code while it is still cold (on tt-llk's
// exp.h about 460 ms of compiler CPU, more than the compile itself) and the first SFPI compile costs
// twice what it does when the optimiser waits for better type feedback. Measured per command in
// docs/performance-tensix.md (session 9): no command got slower. The library leaves the flags of the
// process it is loaded into alone; `node --interrupt-budget=N` (or NODE_OPTIONS) wins over this.
// The project's own long-running scripts run with the same flags: the corpus runners (package.json
// `kernels:*`, `corpus:*`: 20 % less CPU for kernels:llk) and the fuzzer's workers (test/fuzz/main.ts);
// the unit tests run with V8's defaults, as a library user's process does.
import { setFlagsFromString } from 'node:v8';

/** The flags, as they would be written on node's command line. */
export const CLI_V8_FLAGS = ['--interrupt-budget=1000000'];

/** Applies CLI_V8_FLAGS, except a flag the user gave node (command line or NODE_OPTIONS) already. */
export function applyCliV8Flags() {
  const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  for (const f of CLI_V8_FLAGS) {
    const name = f.slice(0, f.indexOf('='));
    if (!given.includes(name) && !given.includes(name.replace(/-/g, '_'))) setFlagsFromString(f);
  }
}

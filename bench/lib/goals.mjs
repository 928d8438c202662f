/**
 * The targets each ratio is judged against (ratios are ours cost / baseline cost). A goal is
 * judged on the server CPU ratio, the figure a noisy machine disturbs least, and on the wall
 * time ratio where CPU time could not be read.
 */

export const WITHIN_BARE = Object.freeze({ atMost: 1.25, text: '<= 1.25x' });
export const FASTER_THAN_OFFICIAL = Object.freeze({ below: 1, text: '< 1x' });
/** A figure reported without a target (the built-in scanner against ripgrep): reported, not judged. */
export const NO_GOAL = Object.freeze({ text: 'none' });

/** A git tool against running git directly with the same arguments. */
export const WITHIN_GIT = Object.freeze({ atMost: 1.3, text: '<= 1.3x' });
/** fs.write with the change journal recording against the same server without it (under 10% more). */
export const CHECKPOINT_COST = Object.freeze({ below: 1.1, text: '< 1.1x' });

/** The command sandbox against the same server without it (goal: under 2x). */
export const SANDBOX_COST = Object.freeze({ below: 2, text: '< 2x' });
/**
 * A sandboxed command in a writable root of 60 repositories against one in an empty root: what
 * keeping 32 repositories' hooks read-only costs. Shown, not judged: the cost is bubblewrap's
 * mounts (bench/README.md, scenario 5), bought on purpose.
 */
export const SANDBOX_REPOS_COST = Object.freeze({ text: 'shown' });

/** The speed targets, over stdio against the bare SDK (or the official filesystem server) in the same run. */
export const AS_FAST_AS_OFFICIAL = Object.freeze({ atMost: 1, text: '<= 1x' });
export const WITHIN_BARE_STDIO = Object.freeze({ atMost: 1.2, text: '<= 1.2x' });
/** An input action against computer-use-mcp's, which moves the pointer in its own process (goal: input.move <= 1.2x). */
export const WITHIN_COMPUTER_USE = Object.freeze({ atMost: 1.2, text: '<= 1.2x' });
export const COLD_START = Object.freeze({ atMost: 1.1, text: '<= 1.1x' });
export const IDLE_MEMORY = Object.freeze({ atMost: 1.1, text: '<= 1.1x' });
export const MEMORY_AFTER_RUNS = Object.freeze({ atMost: 1, text: '<= 1x' });
/** A no-op upstream tool through the gateway against the same upstream called directly (goal: at most 1.15x). */
export const GATEWAY_OVERHEAD = Object.freeze({ atMost: 1.15, text: '<= 1.15x' });
/** The first call through a lazy upstream (started in its sandbox) against spawning it and calling it directly. */
export const GATEWAY_COLD_START = Object.freeze({ atMost: 1.5, text: '<= 1.5x' });
/** A reply against the output it carries: bounded output, sent once, not escaped into bloat. */
export const RESPONSE_SIZE = Object.freeze({ atMost: 1.1, text: '<= 1.1x' });
/** Peak memory of many big outputs at once against the stated bound (maxConcurrent x maxOutputBytes x 2 streams). */
export const WITHIN_MEMORY_BOUND = Object.freeze({ atMost: 1, text: '<= 1x' });

/** `judgedOn`: the row's own figure where it is not a per-call cost (rss, size, ...). */
export function judge(goal, ratio, judgedOn = ratio.cpu !== null ? 'cpu' : 'time') {
  const value = ratio[judgedOn];
  if (goal.atMost === undefined && goal.below === undefined) return { judgedOn, met: null };
  return { judgedOn, met: goal.atMost !== undefined ? value <= goal.atMost : value < goal.below };
}

/** computer.batch of 10 actions against the same 10 actions as single calls, wall time (goal: under 0.3x). */
export const BATCH_OF_TEN = Object.freeze({ below: 0.3, text: '< 0.3x (time)' });
/** A capture through our wlroots backend against grim run directly, wall time (goal: at most 1.5x). */
export const WITHIN_GRIM = Object.freeze({ atMost: 1.5, text: '<= 1.5x (time)' });

/**
 * The targets each ratio is judged against (ratios are ours cost / baseline cost). A goal is
 * judged on the server CPU ratio, the figure a noisy machine disturbs least, and on the wall
 * time ratio where CPU time could not be read.
 */

export const WITHIN_BARE = Object.freeze({ atMost: 1.25, text: '<= 1.25x' });
export const FASTER_THAN_OFFICIAL = Object.freeze({ below: 1, text: '< 1x' });
/** A figure the issue asks for without a target (the built-in scanner against ripgrep): reported, not judged. */
export const NO_GOAL = Object.freeze({ text: 'none' });

/** The command sandbox against the same server without it (issue: "under 2x"). */
export const SANDBOX_COST = Object.freeze({ below: 2, text: '< 2x' });

export function judge(goal, ratio) {
  const judgedOn = ratio.cpu !== null ? 'cpu' : 'time';
  const value = ratio[judgedOn];
  if (goal.atMost === undefined && goal.below === undefined) return { judgedOn, met: null };
  return { judgedOn, met: goal.atMost !== undefined ? value <= goal.atMost : value < goal.below };
}

/**
 * The targets each ratio is judged against (ratios are ours cost / baseline cost). A goal is
 * judged on the server CPU ratio, the figure a noisy machine disturbs least, and on the wall
 * time ratio where CPU time could not be read.
 */

export const WITHIN_BARE = Object.freeze({ atMost: 1.25, text: '<= 1.25x' });
export const FASTER_THAN_OFFICIAL = Object.freeze({ below: 1, text: '< 1x' });
/** The command sandbox against the same server without it (issue: "under 2x"). */
export const SANDBOX_COST = Object.freeze({ below: 2, text: '< 2x' });

export function judge(goal, ratio) {
  const judgedOn = ratio.cpu !== null ? 'cpu' : 'time';
  const value = ratio[judgedOn];
  return { judgedOn, met: goal.atMost !== undefined ? value <= goal.atMost : value < goal.below };
}

/**
 * The steps' buttons: one action at a time across the page (`busy` names it), and the last
 * failure shown under the step whose button ran it.
 */
import { useState } from 'react';

export interface StepActions {
  busy: string | null;
  problem: { step: number; text: string } | null;
  /** Runs `run` as action `name` of `step`; what it returns (or throws) is that step's problem. */
  act(name: string, step: number, run: () => Promise<string | null>): Promise<void>;
}

export function useStepActions(): StepActions {
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<{ step: number; text: string } | null>(null);
  const act = async (name: string, step: number, run: () => Promise<string | null>) => {
    setBusy(name);
    setProblem(null);
    try {
      const error = await run();
      if (error) setProblem({ step, text: error });
    } catch (error) {
      setProblem({ step, text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(null);
    }
  };
  return { busy, problem, act };
}

export function StepProblem({ actions, step }: { actions: StepActions; step: number }) {
  return actions.problem?.step === step ? (
    <p className="field-error" role="alert">
      {actions.problem.text}
    </p>
  ) : null;
}

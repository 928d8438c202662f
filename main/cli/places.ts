/** Where this process keeps its state and which files no tool may touch (composition-root facts). */
import os from 'node:os';
import { appConfigDir, protectedAppDirs, type Place } from '../config/app-dir.js';

export function here(env: NodeJS.ProcessEnv = process.env): Place {
  return { platform: process.platform, env, home: os.homedir() };
}

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return appConfigDir(here(env));
}

/** The config file in use (it may live anywhere) and every folder of this app. */
export function protectedPaths(configPath: string, env: NodeJS.ProcessEnv = process.env): string[] {
  return [configPath, ...protectedAppDirs(here(env))];
}

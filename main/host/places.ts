/** Where this process keeps its state and which files no tool may touch (composition-root facts). */
import os from 'node:os';
import path from 'node:path';
import { appConfigDir, protectedAppDirs, type Place } from '../config/app-dir.js';

export function here(env: NodeJS.ProcessEnv = process.env): Place {
  return { platform: process.platform, env, home: os.homedir() };
}

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return appConfigDir(here(env));
}

/**
 * The config file in use (it may live anywhere), the one CHATGPT_MCP_CONFIG names when --config
 * overrides it (another server, or the tray, may run on that one), and every folder of this app.
 */
export function protectedPaths(configPath: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const named = env.CHATGPT_MCP_CONFIG ? [path.resolve(env.CHATGPT_MCP_CONFIG)] : [];
  return [...new Set([configPath, ...named])].concat(protectedAppDirs(here(env)));
}

/** Types of build/bundle-mcpb.mjs, for the tests that build and start the bundle. */
export interface McpbField {
  type: 'string' | 'number' | 'boolean' | 'directory' | 'file';
  title: string;
  description: string;
  required?: boolean;
  multiple?: boolean;
  default?: string | number | boolean | string[];
}

export interface McpbManifest {
  manifest_version: string;
  name: string;
  version: string;
  icon: string;
  server: { type: 'node'; entry_point: string; mcp_config: { command: string; args: string[]; env: Record<string, string> } };
  compatibility: { platforms: NodeJS.Platform[]; runtimes: { node: string } };
  user_config: Record<string, McpbField>;
}

export interface PackageJson {
  name: string;
  version: string;
  license?: string;
  engines: { node: string };
  dependencies: Record<string, string>;
}

export function mcpbManifest(pkg: PackageJson, platform?: NodeJS.Platform): McpbManifest;
export function runtimePackages(pkg: PackageJson, modules?: string): string[];
export function bundleMcpb(options?: { outFile?: string; stage?: string }): string;

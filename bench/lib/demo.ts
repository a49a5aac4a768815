/** The API process's demo tenant, as the bench finds and logs into it. */

export interface DemoCredentials {
  apiKey: string;
  loginApiKey: string;
  clientUsername: string;
  password: string;
  companyCode: string;
}

/** The demo banner the API prints on an empty database (cmd/shared/demo-banner.ts). */
export function demoCredentials(stdout: string): DemoCredentials | null {
  const field = (name: string) => new RegExp(`^\\s+${name}\\s+(\\S+)\\s*$`, 'm').exec(stdout)?.[1];
  const apiKey = field('apiKey');
  const loginApiKey = field('loginApiKey');
  const clientUsername = field('clientUsername');
  const password = field('password');
  const companyCode = field('companyCode');
  return apiKey && loginApiKey && clientUsername && password && companyCode
    ? { apiKey, loginApiKey, clientUsername, password, companyCode }
    : null;
}

export async function login(port: number, demo: DemoCredentials): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/auth/login`, {
    method: 'POST',
    headers: { 'x-api-key': demo.loginApiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ clientUsername: demo.clientUsername, password: demo.password }),
  });
  const json = (await response.json()) as { accessToken?: string };
  if (response.status !== 200 || !json.accessToken) throw new Error(`POST /auth/login → ${response.status} ${JSON.stringify(json)}`);
  return json.accessToken;
}

/** The caller's environment without the variables cmd/shared/config.ts reads: only ours reach the children. */
export function withoutAppConfig(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const key of Object.keys(copy)) {
    if (/^(PORT|HOST|DATABASE_URL|REDIS_URL|RUN_WORKERS|PUBLIC_BASE_URL|JWT_SECRET(_FILE)?|MIGRATE_ON_START|QUEUE_PREFIX|WORKER_CONCURRENCY|LOG_LEVEL|APP_ENV|DATA_DIR)$/.test(key)) {
      delete copy[key];
    }
  }
  return copy;
}

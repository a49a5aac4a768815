import { runAdminCommand } from '../../adapters/cli/admin-commands';
import { openInfrastructure } from '../shared/infrastructure';
import { jobHandlers } from '../../adapters/queue/job-handlers';
import { buildApplication } from '../../internal/application';
import { loadConfig, publicBaseUrlOf } from '../shared/config';

/** `npm run admin -- <command>`: the operator CLI on the same DATABASE_URL as the server. */
async function main(): Promise<number> {
  const config = loadConfig();
  const infra = await openInfrastructure({ ...config, publicBaseUrl: publicBaseUrlOf(config), redisUrl: null, migrate: true });
  try {
    const app = buildApplication(infra.ports);
    await infra.jobs.consumer.start(jobHandlers(app), []);
    const result = await runAdminCommand(app, process.argv.slice(2), { operator: config.adminOperator, portal: infra.paymentPortal });
    process.stdout.write(result.stdout.endsWith('\n') ? result.stdout : result.stdout + '\n');
    return result.exitCode;
  } finally {
    await infra.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`admin failed: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  },
);

import type { CreatedClient } from '../../internal/tenancy/commands/create-client';

/** What `npm start` prints on a fresh embedded database: credentials and calls that work as pasted. */
export function demoBanner(demo: CreatedClient & { password: string }, baseUrl: string): string {
  return `
  Sandbox demo tenant created (shown once; the secrets are stored only as hashes)

    organization   ${demo.organizationId}
    companyCode    ${demo.companies.map((c) => c.companyCode).join(', ')}
    clientUsername ${demo.clientUsername}
    password       ${demo.password}
    apiKey         ${demo.apiKey}
    loginApiKey    ${demo.loginApiKey}

  Log in, then create a contact:

    TOKEN=$(curl -s -X POST ${baseUrl}/auth/login \\
      -H 'x-api-key: ${demo.loginApiKey}' -H 'content-type: application/json' \\
      -d '{"clientUsername":"${demo.clientUsername}","password":"${demo.password}"}' \\
      | node -pe 'JSON.parse(require("fs").readFileSync(0)).accessToken')

    curl -s -X POST ${baseUrl}/contacts \\
      -H 'x-api-key: ${demo.apiKey}' -H "x-authorization-token: $TOKEN" \\
      -H 'content-type: application/json' \\
      -d '{"externalClientId":"client-001","name":"Ana López","email":"ana@example.com"}'

  API reference: ${baseUrl}/docs
`;
}

import { publishedOpenApiDocument } from '../../adapters/http/published-document';

/** `npm run openapi [-- <server url>]`: prints the OpenAPI document the API serves at /openapi.json. */
const serverUrl = process.argv[2] ?? 'http://localhost:3000';
process.stdout.write(JSON.stringify(publishedOpenApiDocument(serverUrl), null, 2) + '\n');

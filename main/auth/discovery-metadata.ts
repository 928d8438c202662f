/**
 * The discovery documents: protected resource metadata (RFC 9728, built with the MCP SDK's
 * buildOAuthProtectedResourceMetadata) and authorization server metadata (RFC 8414). A client
 * that meets the 401 of /mcp follows them to every other endpoint.
 */
import {
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/server';
import { OAUTH_PATHS } from './oauth-context.js';
import { json, notAllowed, type Reply } from './oauth-http.js';
import { SUPPORTED_SCOPES } from './oauth-limits.js';

export interface DiscoveryDocuments {
  metadata: OAuthMetadata;
  resourceMetadata: OAuthProtectedResourceMetadata;
  /** Where the resource metadata is served, named in every 401. */
  resourceMetadataUrl: string;
}

/** Throws (the SDK's check) when the issuer is neither https nor http on localhost. */
export function discoveryDocuments(origin: string, resource: string): DiscoveryDocuments {
  const metadata = {
    issuer: origin,
    authorization_endpoint: origin + OAUTH_PATHS.authorize,
    token_endpoint: origin + OAUTH_PATHS.token,
    registration_endpoint: origin + OAUTH_PATHS.register,
    revocation_endpoint: origin + OAUTH_PATHS.revoke,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [...SUPPORTED_SCOPES],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: 'https://github.com/chatgpt-computer-mcp/chatgpt-computer-mcp/blob/main/docs/CHATGPT.md',
  } as OAuthMetadata;
  const resourceUrl = new URL(resource);
  // The SDK validates the issuer (https, or http on localhost) and builds the RFC 9728 document.
  const resourceMetadata = buildOAuthProtectedResourceMetadata({
    oauthMetadata: metadata,
    resourceServerUrl: resourceUrl,
    scopesSupported: [...SUPPORTED_SCOPES],
    resourceName: 'ChatGPT Computer MCP',
    dangerouslyAllowInsecureIssuerUrl: resourceUrl.protocol === 'http:',
  });
  return { metadata, resourceMetadata, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resourceUrl) };
}

/** A discovery document, to GET or HEAD; cached five minutes. */
export function serveDocument(method: string, document: OAuthMetadata | OAuthProtectedResourceMetadata): Reply {
  return method === 'GET' || method === 'HEAD' ? json(200, document, { 'cache-control': 'max-age=300' }) : notAllowed('GET');
}

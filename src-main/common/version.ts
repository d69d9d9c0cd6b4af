/** Voxdesk's version as `voxdesk --version` prints it and the MCP server announces it (keep equal to package.json's). */
export const VOXDESK_VERSION = '0.1.0';

import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpConfigError, mcpConfigOf, readMcpConfig, workspaceMcpFile } from '../../../src/mcp';
import { useTempWorkspace } from '../support/tempWorkspace';

// `.vscode/mcp.json` in VS Code's format: JSON with comments, stdio and http servers, variables expanded,
// prompted inputs (and any variable Loopwire does not expand) skipping their server with a line saying why.

describe('mcp: .vscode/mcp.json', () => {
  const temp = useTempWorkspace({}, { prefix: 'mcp-config' });
  const vars = () => ({ workspaceFolder: temp.dir, env: { TOKEN: 'secret', TOOLS_DIR: '/opt/tools' } });

  it('reads stdio and http servers from JSONC, expanding ${workspaceFolder} and ${env:NAME}', async () => {
    await temp.write(
      '.vscode/mcp.json',
      `{
        // VS Code's own file: comments and trailing commas are fine.
        "servers": {
          "echo": {
            "type": "stdio",
            "command": "node",
            "args": ["\${workspaceFolder}/server.mjs", "--tools=\${env:TOOLS_DIR}",],
            "env": { "TOKEN": "\${env:TOKEN}", "PORT": 8080, "DROP": null },
          },
          "bare": { "command": "bare-server", "cwd": "sub" },
          "web": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${env:TOKEN}" } },
        },
      }`,
    );
    const config = await readMcpConfig(workspaceMcpFile(temp.dir), vars());
    assert.deepEqual(config, {
      servers: [
        {
          name: 'echo',
          type: 'stdio',
          command: 'node',
          args: [`${temp.dir}/server.mjs`, '--tools=/opt/tools'],
          env: { TOKEN: 'secret', PORT: '8080', DROP: null },
          cwd: temp.dir,
        },
        { name: 'bare', type: 'stdio', command: 'bare-server', args: [], env: {}, cwd: path.join(temp.dir, 'sub') },
        { name: 'web', type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer secret' } },
      ],
      skipped: [],
    });
  });

  it('skips a server using ${input:…} or an unknown variable, saying why; the others stay', () => {
    const config = mcpConfigOf(
      {
        inputs: [{ type: 'promptString', id: 'key', description: 'API key', password: true }],
        servers: {
          prompted: { type: 'stdio', command: 'server', env: { KEY: '${input:key}' } },
          commanded: { type: 'http', url: 'http://localhost/${command:pick}' },
          home: { type: 'stdio', command: '${userHome}/bin/server' },
        },
      },
      vars(),
      'mcp.json',
    );
    assert.deepEqual(
      config.servers.map((server) => server.name),
      ['home'],
    );
    assert.equal(config.servers[0]?.type === 'stdio' && config.servers[0].command, `${os.homedir()}/bin/server`);
    assert.deepEqual(config.skipped, [
      "mcp.json: MCP server 'prompted' skipped: it uses ${input:key}, and prompting for inputs is not supported; put the value in an environment variable and use ${env:NAME}",
      "mcp.json: MCP server 'commanded' skipped: it uses ${command:pick}, and Loopwire expands only ${workspaceFolder}, ${userHome}, ${pathSeparator} and ${env:NAME}",
    ]);
  });

  it('skips an entry that is no server, naming the field', () => {
    const config = mcpConfigOf(
      { servers: { nothing: {}, badArgs: { command: 'x', args: 'not a list' }, badUrl: { type: 'http', url: 3 } } },
      vars(),
      'mcp.json',
    );
    assert.deepEqual(config.servers, []);
    assert.equal(config.skipped.length, 3);
    assert.match(config.skipped[0] ?? '', /'nothing' skipped: command: .*a stdio server has a "command"/);
    assert.match(config.skipped[1] ?? '', /'badArgs' skipped: args: /);
    assert.match(config.skipped[2] ?? '', /'badUrl' skipped: url: /);
  });

  it('no file is no servers; a file that is not JSONC or has no servers object is an error', async () => {
    assert.equal(await readMcpConfig(temp.path('none.json'), vars()), undefined);
    await temp.write('broken.json', '{ "servers": { ');
    await assert.rejects(readMcpConfig(temp.path('broken.json'), vars()), (error: unknown) => {
      assert.ok(error instanceof McpConfigError);
      assert.match(error.message, /broken\.json: not valid JSON with comments/);
      return true;
    });
    await temp.write('list.json', '{ "servers": [] }');
    await assert.rejects(readMcpConfig(temp.path('list.json'), vars()), /not an MCP configuration/);
  });
});

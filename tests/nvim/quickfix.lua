-- Neovim's own LSP client (0.7 and later) attaches `interlint server`, waits for the finding of
-- a file, asks for its code actions, applies the quick fix, writes the file and says what it
-- did in the transcript named by INTERLINT_LOG. Run by tests/nvim.rs.
local lines = {}
local function say(text)
  table.insert(lines, text)
end

local function main()
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('INTERLINT_TARGET')))
  local buf = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = 'interlint',
    cmd = { os.getenv('INTERLINT_BIN'), 'server' },
    root_dir = vim.fn.getcwd(),
  })
  if not client_id then
    say('error: the client did not start')
    return
  end
  vim.lsp.buf_attach_client(buf, client_id)
  say('attached: interlint server')
  if not vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50) then
    say('error: no diagnostic within 30 s')
    return
  end
  local found = vim.diagnostic.get(buf)
  local first = found[1]
  for _, d in ipairs(found) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?'
    say(string.format('diagnostic %d:%d %s [%s] %s', d.lnum + 1, d.col + 1, d.source or '', code, d.message))
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = {
      start = { line = first.lnum, character = first.col },
      ['end'] = { line = first.end_lnum, character = first.end_col },
    },
    context = { diagnostics = {}, only = { 'quickfix' } },
  }
  local replies = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000) or {}
  local chosen
  for _, reply in pairs(replies) do
    for _, action in ipairs(reply.result or {}) do
      say('code action: ' .. action.title)
      if not chosen and action.isPreferred then
        chosen = action
      end
    end
  end
  if not chosen then
    say('error: no preferred quick fix')
    return
  end
  vim.lsp.util.apply_workspace_edit(chosen.edit, 'utf-16')
  say('applied: ' .. chosen.title)
  vim.cmd('write')
  say('written: ' .. vim.fn.expand('%:t'))
  if vim.wait(30000, function() return #vim.diagnostic.get(buf) == 0 end, 50) then
    say('diagnostics after the fix: 0')
  else
    say('diagnostics after the fix: ' .. #vim.diagnostic.get(buf))
  end
end

local ok, err = pcall(main)
if not ok then
  say('error: ' .. tostring(err))
end
vim.fn.writefile(lines, os.getenv('INTERLINT_LOG'))
vim.cmd('qa!')

-- Run by tests/nvim.rs after the README's Neovim snippet, which is the `init.lua` (-u): opening
-- a file starts `interlint server` (vim.lsp.start on 0.8 and later, vim.lsp.start_client on
-- 0.7). The script waits for the client and the finding, asks for the code actions, applies
-- the quick fix, writes the file, opens a second file of the same folder (the same client
-- must serve it) and says what it did in the transcript named by INTERLINT_LOG.
local lines = {}
local function say(text)
  table.insert(lines, text)
end

-- The interlint client attached to a buffer (0.10 has vim.lsp.get_clients; 0.7 to 0.9 have
-- vim.lsp.buf_get_clients, deprecated since).
local function interlint_client(buf)
  local clients
  if vim.lsp.get_clients then
    clients = vim.lsp.get_clients({ bufnr = buf })
  else
    clients = vim.lsp.buf_get_clients(buf)
  end
  for _, client in pairs(clients) do
    if client.name == 'interlint' then
      return client
    end
  end
  return nil
end

local function main()
  local v = vim.version()
  say(string.format('neovim %d.%d.%d', v.major, v.minor, v.patch))
  say('started with ' .. (vim.lsp.start and 'vim.lsp.start' or 'vim.lsp.start_client'))
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('INTERLINT_TARGET')))
  local buf = vim.api.nvim_get_current_buf()
  if not vim.wait(10000, function() return interlint_client(buf) ~= nil end, 50) then
    say('error: no interlint client attached within 10 s (filetype ' .. vim.bo[buf].filetype .. ')')
    return
  end
  local client = interlint_client(buf)
  say('attached: ' .. client.name .. ' at ' .. tostring(client.config.root_dir))
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
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('INTERLINT_SECOND')))
  local second = vim.api.nvim_get_current_buf()
  if not vim.wait(10000, function() return interlint_client(second) ~= nil end, 50) then
    say('error: no interlint client attached to the second file within 10 s')
    return
  end
  if interlint_client(second).id == client.id then
    say('second file: the same client')
  else
    say('error: the second file got another client')
  end
end

local ok, err = pcall(main)
if not ok then
  say('error: ' .. tostring(err))
end
vim.fn.writefile(lines, os.getenv('INTERLINT_LOG'))
vim.cmd('qa!')

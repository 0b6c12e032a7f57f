-- Headless Neovim (0.7 to current): open an Enzyme test, run the "Migrate to RTL" code action
-- through the built-in client's code action menu, wait for the end of progress, write what
-- happened. Uses what both 0.7 and 0.10+ have: global handlers, vim.ui.select.
local out = vim.env.NVIMTEST_RESULT
local function finish(result)
  local f = io.open(out, 'w')
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qall!')
end

local messages = {}
for _, method in ipairs({ 'window/showMessage', 'window/logMessage' }) do
  vim.lsp.handlers[method] = function(_, result)
    table.insert(messages, result.message)
  end
end

-- The end of the run's work-done progress (0.7 keeps it in client.messages, 0.10 in
-- client.progress: the handler both call is the common ground).
local progress_ended = false
local default_progress = vim.lsp.handlers['$/progress']
vim.lsp.handlers['$/progress'] = function(err, result, ctx, config)
  if result and type(result.value) == 'table' and result.value.kind == 'end' then
    progress_ended = true
  end
  return default_progress(err, result, ctx, config)
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.NVIMTEST_FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'typescriptreact'
  local client_id = vim.lsp.start_client({
    name = 'testmend',
    cmd = vim.fn.json_decode(vim.env.NVIMTEST_SERVER_CMD),
    root_dir = vim.env.NVIMTEST_APP,
    init_options = { testmend = {} },
  })
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client
  assert(vim.wait(30000, function()
    client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized
  end, 50), 'the server did not initialize')
  assert(vim.wait(30000, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 50), 'no Enzyme diagnostic')
  local diagnostic = vim.diagnostic.get(bufnr)[1]

  local offered = {}
  vim.ui.select = function(items, _, on_choice)
    -- 0.7: {client_id, action}; 0.10: {action = …, ctx = …}
    local function action(item) return item.action or item[2] end
    for _, item in ipairs(items) do
      table.insert(offered, action(item).title)
    end
    for i, item in ipairs(items) do
      if action(item).title == 'Migrate to RTL' then
        return on_choice(item, i)
      end
    end
    on_choice(nil, nil)
  end
  vim.api.nvim_win_set_cursor(0, { diagnostic.lnum + 1, diagnostic.col })
  vim.lsp.buf.code_action()

  local function text()
    return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  end
  local function progress_done() return progress_ended end
  local migrated = vim.wait(tonumber(vim.env.NVIMTEST_WAIT_MS or '300000'), function()
    return progress_done() and text():find('@testing-library/react', 1, true) ~= nil
  end, 200)
  finish({
    migrated = migrated,
    progress_done = progress_done(),
    offered = offered,
    diagnostic = diagnostic.message,
    text = text(),
    messages = messages,
    version = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor),
  })
end)
if not ok then finish({ error = tostring(err), messages = messages }) end

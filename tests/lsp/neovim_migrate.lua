-- Headless Neovim (0.7+): open an Enzyme test, run the "Migrate to RTL" code action through
-- the built-in client's code action menu, wait for the end of progress, write what happened.
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
    for i, item in ipairs(items) do
      table.insert(offered, item[2].title)
    end
    for i, item in ipairs(items) do
      if item[2].title == 'Migrate to RTL' then
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
  local function progress_done()
    for _, p in pairs(client.messages.progress or {}) do
      if p.done then return true end
    end
    return false
  end
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
  })
end)
if not ok then finish({ error = tostring(err), messages = messages }) end

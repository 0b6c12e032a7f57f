-- Headless Neovim 0.10: migrate an Enzyme test offline (its result is kept for review), open the
-- kept result with testmend.reviewResult (the server shows it with window/showDocument), and
-- take its first hunk through the code action on that document. Writes what happened.
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
local function said(text)
  for _, message in ipairs(messages) do
    if message:find(text, 1, true) then return true end
  end
  return false
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.NVIMTEST_FILE))
  local test_buf = vim.api.nvim_get_current_buf()
  vim.bo[test_buf].filetype = 'typescriptreact'
  local client_id = vim.lsp.start_client({
    name = 'testmend',
    cmd = vim.fn.json_decode(vim.env.NVIMTEST_SERVER_CMD),
    root_dir = vim.env.NVIMTEST_APP,
  })
  vim.lsp.buf_attach_client(test_buf, client_id)
  local client
  assert(vim.wait(30000, function()
    client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized
  end, 50), 'the server did not initialize')

  local uri = vim.uri_from_bufnr(test_buf)
  local started
  client.request('workspace/executeCommand',
    { command = 'testmend.migrate', arguments = { uri, 0, {} } },
    function(_, result) started = result end, test_buf)
  assert(vim.wait(30000, function() return started ~= nil end, 50), 'migrate did not answer')
  assert(started.runId, 'no run: ' .. vim.inspect(started))
  assert(vim.wait(300000, function() return said('kept, not applied') end, 200),
    'the result was not kept: ' .. vim.inspect(messages))

  local opened
  client.request('workspace/executeCommand',
    { command = 'testmend.reviewResult', arguments = { started.runId } },
    function(_, result) opened = result end, test_buf)
  assert(vim.wait(60000, function() return opened ~= nil end, 50), 'review did not answer')
  assert(opened.opened, 'not opened: ' .. vim.inspect(opened))
  local review_buf = vim.uri_to_bufnr(opened.resultUri)
  assert(vim.wait(10000, function()
    return vim.api.nvim_get_current_buf() == review_buf
  end, 50), 'the result was not shown')
  vim.bo[review_buf].filetype = 'typescriptreact'
  vim.lsp.buf_attach_client(review_buf, client_id)
  assert(vim.wait(10000, function()
    return #vim.diagnostic.get(review_buf) > 0
  end, 50), 'no findings on the result')
  local findings = {}
  for _, d in ipairs(vim.diagnostic.get(review_buf)) do table.insert(findings, d.message) end

  local hunk = opened.hunks[1]
  local offered = {}
  vim.ui.select = function(items, _, on_choice)
    for _, item in ipairs(items) do table.insert(offered, item.action.title) end
    for i, item in ipairs(items) do
      if item.action.title:find('^Accept hunk 1/') then return on_choice(item, i) end
    end
    on_choice(nil, nil)
  end
  vim.api.nvim_win_set_cursor(0, { hunk.line + 1, 0 })
  vim.lsp.buf.code_action()
  local function text()
    return table.concat(vim.api.nvim_buf_get_lines(test_buf, 0, -1, false), '\n')
  end
  local before = text()
  local took = vim.wait(30000, function() return said('took 1 of') end, 100)
  finish({
    took = took,
    offered = offered,
    findings = findings,
    hunks = #opened.hunks,
    result_uri = opened.resultUri,
    before = before,
    text = text(),
    messages = messages,
  })
end)
if not ok then finish({ error = tostring(err), messages = messages }) end

// What a person does in VS Code's workbench, as Playwright steps on code-server's page: open a
// file, right-click, pick from the lightbulb or the palette, read notifications and the editor.
import type { Locator, Page } from 'playwright-core';

export class Workbench {
  constructor(readonly page: Page) {}

  async open(url: string, folder: string): Promise<void> {
    await this.page.goto(`${url}/?folder=${encodeURIComponent(folder)}`);
    await this.page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  }

  /** testmend's status bar item once the server answered `initialize` (a check mark). */
  serverStatus(): Locator {
    return this.page.locator('.statusbar-item', { hasText: 'testmend' }).first();
  }

  async waitForServer(timeout = 90_000): Promise<void> {
    await this.serverStatus().locator('.codicon-check').waitFor({ timeout });
  }

  /** Ctrl+P, the file's name, and a click on the row of the folder it is in. */
  async openFile(relative: string): Promise<void> {
    const name = relative.split('/').pop() ?? relative;
    const folder = relative.slice(0, relative.length - name.length - 1);
    await this.page.keyboard.press('Control+P');
    await this.page.keyboard.type(name);
    await this.page
      .locator('.quick-input-list .monaco-list-row', { hasText: folder })
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escape(name)}$`) }) })
      .first()
      .click();
    await this.activeTab(name).waitFor({ timeout: 30_000 });
  }

  activeTab(name: string): Locator {
    return this.page.locator('.tab.active', { hasText: name });
  }

  editor(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  }

  /** The lines the active editor shows (VS Code renders spaces as U+00A0). */
  async editorText(): Promise<string> {
    const lines = await this.editor()
      .locator('.view-line')
      .evaluateAll((nodes): string[] =>
        (nodes as unknown as RenderedLine[])
          .map((node) => ({ top: parseFloat(node.style.top), text: node.textContent ?? '' }))
          .sort((a, b) => a.top - b.top)
          .map((line) => line.text),
      );
    return lines.join('\n').replace(/\u00a0/g, ' ');
  }

  /** Places the cursor in the active editor on the first rendered token with this text. */
  async clickToken(text: string): Promise<void> {
    await this.editor().locator('.view-line span span', { hasText: text }).first().click();
  }

  /** Right-click in the active editor, then the context menu's item. */
  async editorContextMenu(item: string): Promise<void> {
    await this.clickWhenFree(this.editor(), { button: 'right', position: { x: 300, y: 60 } });
    await this.menuItem(item);
  }

  /** Clicks `target` once nothing lies over it. On a loaded machine a menu, quick input or hover
   * of an earlier step can still be closing (the page then reports "<html> intercepts pointer
   * events"); a person would press Escape and click again, and so does this, three times at most,
   * then fails naming what was over the point. */
  async clickWhenFree(target: Locator, options: ClickOptions = {}): Promise<void> {
    const covers: string[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await target.click({ ...options, timeout: 10_000 });
        return;
      } catch (error) {
        if (!(error instanceof Error) || error.name !== 'TimeoutError') throw error;
        covers.push(await this.coverAt(target, options.position));
        await this.page.keyboard.press('Escape');
        await this.page.mouse.move(0, 0);
        await this.page.waitForTimeout(1_000);
      }
    }
    throw new Error(`could not click ${String(target)}: covered by ${covers.join(', then ')}`);
  }

  /** What the page reports at the point a click on `target` would land. */
  private async coverAt(target: Locator, position?: { x: number; y: number }): Promise<string> {
    const box = await target.boundingBox();
    if (!box) return 'nothing (the target is not shown)';
    const x = box.x + (position?.x ?? box.width / 2);
    const y = box.y + (position?.y ?? box.height / 2);
    return this.page.evaluate(
      ([px, py]) => {
        const doc = (globalThis as unknown as { document: { elementFromPoint(x: number, y: number): PageElement | null } }).document;
        const hit = doc.elementFromPoint(px, py);
        return hit ? `<${hit.tagName.toLowerCase()} class="${hit.className}">` : 'nothing';
      },
      [x, y] as const,
    );
  }

  /** Clicks a context menu's item. VS Code ignores a click that comes right after the menu
   * opened (the right-click's own mouse-up); a person's comes later. */
  async menuItem(item: string): Promise<void> {
    const entry = this.page.getByRole('menuitem', { name: item, exact: true });
    await entry.waitFor({ timeout: 15_000 });
    await entry.hover();
    await this.page.waitForTimeout(500);
    await entry.click();
    await entry.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** The lightbulb VS Code shows in the gutter of the cursor's line; `quickFix`: the blue one of
   * a preferred quick fix for a diagnostic there. */
  lightbulb(quickFix = false): Locator {
    const kind = quickFix ? 'codicon-gutter-lightbulb-auto-fix' : 'codicon-gutter-lightbulb';
    return this.page
      .locator(`.editor-group-container.active .monaco-editor .glyph-margin-widgets .${kind}`)
      .first();
  }

  /** Clicks the lightbulb; returns the titles of its menu once they stop changing (other
   * extensions' actions arrive later and move the rows). */
  async openLightbulb(quickFix = false): Promise<string[]> {
    const bulb = this.lightbulb(quickFix);
    const rows = this.page.locator('.action-widget .monaco-list-row.action');
    // VS Code redraws the bulb when later actions for the line arrive (TypeScript's, on a busy
    // machine seconds later); a click on the one being replaced opens nothing, and a person
    // clicks again.
    // While it redraws, the page can hold the pointer for a moment (the bulb detached, the
    // workbench on top): a click that cannot land within seconds is given up and tried again.
    for (let attempt = 1; ; attempt++) {
      await bulb.waitFor({ timeout: 30_000 });
      const clicked = await bulb.click({ timeout: 5_000 }).then(
        () => true,
        () => false,
      );
      const opened =
        clicked &&
        (await rows.first().waitFor({ timeout: 10_000 }).then(
          () => true,
          () => false,
        ));
      if (opened) break;
      if (attempt === 5) throw new Error('the lightbulb opened no menu, five clicks');
      console.log(
        clicked ? 'the lightbulb opened no menu: clicking it again' : 'the lightbulb took no click: again',
      );
      await this.page.mouse.move(0, 0);
      await this.page.waitForTimeout(500);
    }
    let titles: string[] = [];
    for (let stable = 0; stable < 3; ) {
      const now = (await rows.allInnerTexts()).map((text) => text.trim());
      stable = JSON.stringify(now) === JSON.stringify(titles) ? stable + 1 : 0;
      titles = now;
      await this.page.waitForTimeout(250);
    }
    return titles;
  }

  async pickAction(title: string): Promise<void> {
    const row = this.page.locator('.action-widget .monaco-list-row.action', { hasText: title });
    // A menu that just opened blocks the pointer until it moves (VS Code's context view).
    await row.hover({ force: true });
    await row.click();
    await this.page.locator('.action-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** F1, the command's palette title, Enter. */
  async palette(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 15_000 });
    await input.fill(`>${title}`);
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
  }

  toast(text: string | RegExp): Locator {
    return this.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
  }

  /** Every notification toast on screen, one string each. */
  async toasts(): Promise<string[]> {
    return this.page.locator('.notifications-toasts .notification-toast .notification-list-item-message').allInnerTexts();
  }

  /** Waits for a toast with `text`, noting the toasts seen meanwhile (progress messages). */
  async waitForToast(text: string | RegExp, timeout: number, seen: Set<string> = new Set()): Promise<void> {
    const deadline = Date.now() + timeout;
    const matches = (value: string) => (typeof text === 'string' ? value.includes(text) : text.test(value));
    for (;;) {
      const toasts = await this.toasts();
      toasts.forEach((toast) => seen.add(toast));
      if (toasts.some(matches)) return;
      if (Date.now() > deadline) {
        throw new Error(`no notification ${String(text)} within ${timeout / 1000} s; seen: ${JSON.stringify([...seen])}`);
      }
      await this.page.waitForTimeout(250);
    }
  }

  async clearNotifications(): Promise<void> {
    await this.palette('Notifications: Clear All Notifications');
  }

  /** The explorer's row for a path of the workspace, opening its folders on the way. */
  async explorerRow(relative: string): Promise<Locator> {
    const parts = relative.split('/');
    for (let depth = 1; depth <= parts.length; depth++) {
      const row = this.page.locator(`.explorer-folders-view .monaco-list-row[aria-level="${depth}"]`, {
        has: this.page.locator('.label-name', { hasText: new RegExp(`^${escape(parts[depth - 1])}$`) }),
      });
      await row.first().waitFor({ timeout: 15_000 });
      if (depth === parts.length) return row.first();
      if ((await row.first().getAttribute('aria-expanded')) !== 'true') await row.first().click();
    }
    throw new Error(`no explorer row for ${relative}`);
  }

  async screenshot(path: string): Promise<void> {
    await this.page.screenshot({ path });
  }
}

/** The options of a click that are used here. */
type ClickOptions = { button?: 'left' | 'right'; position?: { x: number; y: number } };

/** What the page's elements have that is read here (the project has no DOM types). */
interface PageElement {
  tagName: string;
  className: string;
}

/** What the page's line elements have that is read here (the project has no DOM types). */
interface RenderedLine {
  textContent: string | null;
  style: { top: string };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

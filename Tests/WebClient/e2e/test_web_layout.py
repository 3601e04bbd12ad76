"""Layout, scales, tooltips and print (issue 30, items 2 and 8), in headless Chromium against a real
plan-server: a phone's 375×812 window (the list collapsed to its titles, the chart keeping 60 % of
the width, a legible heading, the other columns behind a toggle, pinch zoom and touch scrolling);
the zoom buttons through the month, quarter and year scales, zoom to fit; the bars' tooltips by
pointer and keyboard (slack in automatic plans only); the list's split and a column resized and
kept after a reload; the whole plan on pages under print media. Screenshots go to WEB_SHOTS, and
the README's two to README_SHOTS when set (ops/readme-screenshots)."""

import copy
import json
import os
import shutil
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(__file__))
from harness import BrowserTests, sign_in, wait, row, rows, shot
from test_web import press, select_row
from test_web_scheduling import CHAIN

ALL = ['Design', 'User research', 'Specification', 'Design review', 'Implementation', 'Backend', 'Storage layer',
       'Plan server', 'Terminal client', 'Documentation', 'Release', 'Beta', 'Launch']
EXTRA = [{'id': f'extra-{n}', 'title': f'Extra task {n:02}', 'kind': 'activity', 'progress': n,
          'schedule': {'start': '2026-09-14', 'end': '2026-09-19'}} for n in range(1, 31)]


def box(driver, selector):
    """The bounding box of the first element matching `selector`: {left, right, width, top, bottom}, or None."""
    return driver.execute_script('''
        const node = document.querySelector(arguments[0]);
        if (!node) return null;
        const r = node.getBoundingClientRect();
        return { left: r.left, right: r.right, width: r.width, top: r.top, bottom: r.bottom, height: r.height };''', selector)


def label(driver):
    return driver.find_element(By.ID, 'zoom-label').text


def sections(driver, row_index):
    """The keys of the header sections drawn in header row `row_index` (0 top) of the task chart."""
    return driver.execute_script('''
        return [...document.querySelectorAll('#tasks .chart-head text[data-section]')]
          .filter((t) => Math.floor(Number(t.getAttribute('y')) / 22) === arguments[0]).map((t) => t.dataset.section);''', row_index)


def marks_span(driver):
    """The left edge of the leftmost and the right edge of the rightmost bar or diamond, relative to the chart, and its width."""
    return driver.execute_script('''
        const chart = document.querySelector('#tasks svg.chart-body').getBoundingClientRect();
        const boxes = [...document.querySelectorAll('#tasks svg.chart-body .bar, #tasks svg.chart-body .milestone')]
          .map((n) => n.getBoundingClientRect());
        return [Math.min(...boxes.map((b) => b.left)) - chart.left, Math.max(...boxes.map((b) => b.right)) - chart.left, chart.width];''')


def tooltip(driver):
    """The shown tooltip's lines by kind, or None while hidden."""
    return driver.execute_script('''
        const tip = document.getElementById('bar-tip');
        if (!tip || tip.hidden) return null;
        return Object.fromEntries([...tip.children].map((line) => [line.className, line.textContent]));''')


def hover(driver, task):
    mark = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'#tasks svg.chart-body [data-id="{task}"]:is(.bar, .milestone)'))
    ActionChains(driver).move_to_element(mark).perform()


def touch(driver, kind, points):
    driver.execute_cdp_cmd('Input.dispatchTouchEvent', {'type': kind, 'touchPoints': [{'x': x, 'y': y, 'id': i} for i, (x, y) in enumerate(points)]})


def pinch(driver, x, y, start, end):
    """Two fingers around (x, y), `start` pixels apart, moved to `end` apart in steps, then lifted."""
    touch(driver, 'touchStart', [(x - start / 2, y), (x + start / 2, y)])
    for step in range(1, 6):
        gap = start + (end - start) * step / 5
        touch(driver, 'touchMove', [(x - gap / 2, y), (x + gap / 2, y)])
    touch(driver, 'touchEnd', [])


def readme_copy(path, name):
    """Copies a screenshot into README_SHOTS (docs/images) when that is set."""
    target = os.environ.get('README_SHOTS')
    if target:
        os.makedirs(target, exist_ok=True)
        shutil.copyfile(path, os.path.join(target, name))


def print_media(driver, on):
    driver.execute_cdp_cmd('Emulation.setEmulatedMedia', {'media': 'print' if on else ''})


class LayoutTests(BrowserTests):
    """A desktop browser (1400×900) and one emulating a phone."""

    def phone(self):
        self.b.execute_cdp_cmd('Emulation.setDeviceMetricsOverride', {'width': 375, 'height': 812, 'deviceScaleFactor': 1, 'mobile': True})
        self.b.execute_cdp_cmd('Emulation.setTouchEmulationEnabled', {'enabled': True, 'maxTouchPoints': 5})
        self.addCleanup(self.b.execute_cdp_cmd, 'Emulation.clearDeviceMetricsOverride', {})
        self.addCleanup(self.b.execute_cdp_cmd, 'Emulation.setTouchEmulationEnabled', {'enabled': False})

    def open(self, driver, plan, shown='Storage layer'):
        sign_in(driver, self.server, self.people.tokens[self.people.alice], plan, shown=shown)
        wait(driver, lambda d: d.execute_script('return document.body.dataset.preloaded') == 'all', 'the later modules did not load')

    def test_a_phone_shows_the_titles_beside_a_wide_chart_with_the_rest_behind_a_toggle(self):
        b = self.b
        self.phone()
        plan = self.people.plan()
        self.open(b, plan)
        self.assertEqual(b.execute_script('return innerWidth'), 375)
        # The list is its title column; the chart keeps at least 60 % of the width.
        wait(b, lambda d: box(d, '#tasks .list-body')['width'] <= 0.4 * 375 and box(d, '#tasks svg.chart-body')['width'] >= 0.6 * 375,
             'the chart does not keep 60 % of the width')
        self.assertFalse(b.find_element(By.CSS_SELECTOR, '#tasks .row .cell.dates').is_displayed(), 'dates behind the toggle')
        self.assertTrue(b.find_element(By.CSS_SELECTOR, '#tasks .row .cell.name').is_displayed())
        self.assertEqual([cells[0].lstrip('▾▸').strip() for cells in rows(b)], ALL)
        # The heading is legible: a real font size, the whole title on its line.
        heading = b.execute_script('''const h = document.getElementById('heading');
            return [parseFloat(getComputedStyle(h).fontSize), h.clientWidth, h.scrollWidth, h.textContent];''')
        self.assertGreaterEqual(heading[0], 16)
        self.assertEqual(heading[3], 'ChronoSketch launch')
        self.assertGreaterEqual(heading[1], heading[2], 'the title is not cut')
        self.assertGreater(heading[1], 300, 'the heading has the width of the window')
        shot(b, 'phone-375x812')
        # Zoom to fit on a phone: the whole plan in the chart's part of the width, as in the README.
        b.find_element(By.ID, 'zoom-fit').click()
        wait(b, lambda d: label(d) != 'zoom 1 d', 'Fit did nothing')
        wait(b, lambda d: d.find_elements(By.CSS_SELECTOR, '#tasks svg.chart-body .milestone[data-id="launch"]'))
        readme_copy(shot(b, 'phone-fitted'), 'web-phone.png')
        # The toggle shows the other columns over the chart, within the window; again hides them.
        toggle = b.find_element(By.CSS_SELECTOR, '#tasks .columns-toggle')
        self.assertEqual(toggle.get_attribute('aria-expanded'), 'false')
        toggle.click()
        wait(b, lambda d: d.find_element(By.CSS_SELECTOR, '#tasks .row .cell.dates').is_displayed(), 'the toggle shows nothing')
        for name in ('kind', 'dates', 'progress'):
            cell = box(b, f'#tasks .row:not([hidden]) .cell.{name}')
            self.assertGreater(cell['width'], 40, name)
            self.assertLessEqual(cell['right'], 375 + 1, f'{name} lies outside the window')
        self.assertIn('2026-09-07', ' '.join(' '.join(cells) for cells in rows(b)))
        self.assertEqual(b.find_element(By.CSS_SELECTOR, '#tasks .columns-toggle').get_attribute('aria-expanded'), 'true')
        self.assertGreaterEqual(box(b, '#tasks svg.chart-body')['width'], 0.6 * 375, 'the chart keeps its place under them')
        shot(b, 'phone-columns')
        b.find_element(By.CSS_SELECTOR, '#tasks .columns-toggle').click()
        wait(b, lambda d: not d.find_element(By.CSS_SELECTOR, '#tasks .row .cell.dates').is_displayed())

    def test_a_phone_zooms_by_buttons_and_pinch_and_scrolls_by_touch(self):
        b = self.b
        self.phone()
        plan = self.people.plan(extra_tasks=copy.deepcopy(EXTRA))
        self.open(b, plan)
        self.assertEqual(label(b), 'zoom 1 d')
        b.find_element(By.ID, 'zoom-out').click()
        wait(b, lambda d: label(d) == 'zoom 2 d', 'the zoom button does nothing')
        chart = box(b, '#tasks svg.chart-body')
        x, y = chart['left'] + chart['width'] / 2, chart['top'] + 120
        pinch(b, x, y, 60, 130)
        wait(b, lambda d: label(d) == 'zoom 1 d', 'fingers apart do not zoom in')
        pinch(b, x, y, 160, 60)
        wait(b, lambda d: label(d) in ('zoom 4 d', 'zoom 6 d'), 'fingers together do not zoom out')
        # Touch scrolls the list and the chart (rows leave the browser the pan).
        self.assertEqual(b.execute_script("return getComputedStyle(document.querySelector('#tasks .row')).touchAction"), 'pan-x pan-y')
        listed = box(b, '#tasks .list-body')
        x, y = listed['left'] + 40, listed['top'] + 450
        touch(b, 'touchStart', [(x, y)])
        for step in range(1, 11):
            touch(b, 'touchMove', [(x, y - 30 * step)])
        touch(b, 'touchEnd', [])
        wait(b, lambda d: d.execute_script('return document.getElementById("tasks").scrollTop') > 100, 'a finger does not scroll the list')
        wait(b, lambda d: row(d, 'Extra task 20') is not None, 'the rows further down were not drawn')

    def test_zoom_buttons_reach_the_month_quarter_and_year_scales_and_zoom_to_fit(self):
        a = self.a
        plan = self.people.plan()
        self.open(a, plan)
        for _ in range(5):
            a.find_element(By.ID, 'zoom-out').click()
        wait(a, lambda d: label(d) == 'months', 'no month scale')
        wait(a, lambda d: '2026' in sections(d, 0) and '2026-10' in sections(d, 1), 'months: years over months')
        self.assertTrue(any(key.startswith('2026-W') for key in sections(a, 2)), 'months: ISO weeks below')
        shot(a, 'scale-months')
        a.find_element(By.ID, 'zoom-out').click()
        wait(a, lambda d: label(d) == 'quarters' and {'2026-Q3', '2026-Q4'} <= set(sections(d, 1)), 'no quarter scale')
        self.assertIn('2026-11', sections(a, 2), 'quarters: months below')
        self.assertIn('Quarter 4 2026', a.execute_script("return [...document.querySelectorAll('#tasks .chart-head text')].map((t) => t.textContent)"))
        shot(a, 'scale-quarters')
        a.find_element(By.ID, 'zoom-out').click()
        wait(a, lambda d: label(d) == 'years' and {'2026', '2027'} <= set(sections(d, 0)), 'no year scale')
        wait(a, lambda d: d.find_element(By.ID, 'zoom-out').get_attribute('disabled'), 'years are the coarsest')
        # The axis reaches across the whole chart at the year scale (years, not an empty chart).
        self.assertGreaterEqual(len(sections(a, 0)), 3)
        self.assertEqual([line.get_attribute('class') for line in a.find_elements(By.CSS_SELECTOR, '#tasks rect.off')], [],
                         'no non-working days shaded at a day a pixel')
        shot(a, 'scale-years')
        a.find_element(By.ID, 'zoom-in').click()
        wait(a, lambda d: label(d) == 'quarters')
        # Zoom to fit: the plan's first and last dates at the chart's edges.
        a.find_element(By.ID, 'zoom-fit').click()
        wait(a, lambda d: label(d).startswith('zoom '), 'fit chose no day zoom for a two-month plan')

        def fitted(d):
            left, right, width = marks_span(d)
            return 0 <= left <= 0.1 * width and 0.85 * width <= right <= width

        wait(a, fitted, f'the plan does not fill the chart: {marks_span(a)}')
        shot(a, 'zoom-to-fit')
        press(a, '+', '+', '+')
        wait(a, lambda d: label(d) == 'zoom 1 d')
        select_row(a, 'Design')
        press(a, 'f')
        wait(a, fitted, 'f does not fit')

    def test_tooltips_show_dates_progress_and_slack_by_pointer_and_keyboard(self):
        a = self.a
        plan = self.people.plan(data=copy.deepcopy(CHAIN))
        self.open(a, plan, shown='Side work')
        wait(a, lambda d: d.find_elements(By.CSS_SELECTOR, '#tasks rect.bar.critical'), 'no figures')
        hover(a, 'design')
        wait(a, lambda d: tooltip(d) is not None and tooltip(d).get('title') == 'Design', 'no tooltip on hover')
        shot(a, 'tooltip')
        self.assertEqual(tooltip(a), {'title': 'Design', 'dates': '2026-09-07 – 2026-09-08 · 2 days', 'progress': 'Progress: 50 %',
                                      'slack': 'Slack: 0 working days (critical)'})
        self.assertEqual(a.find_element(By.ID, 'bar-tip').get_attribute('role'), 'tooltip')
        hover(a, 'release')
        wait(a, lambda d: (tooltip(d) or {}).get('title') == 'Release')
        self.assertEqual(tooltip(a)['dates'], 'Milestone on 2026-09-16')
        self.assertNotIn('progress', tooltip(a))
        hover(a, 'side')
        wait(a, lambda d: (tooltip(d) or {}).get('slack') == 'Slack: 6 working days')
        ActionChains(a).move_to_element(a.find_element(By.ID, 'heading')).perform()
        wait(a, lambda d: tooltip(d) is None, 'the tooltip stays when the pointer leaves')
        # By keyboard: the selected row's tooltip while the list has the focus; Escape hides it.
        select_row(a, 'Design')
        a.execute_script('document.getElementById("tasks").blur()')
        press(a, Keys.TAB)  # from the body, the first tab stop … until the list
        for _ in range(40):
            if a.switch_to.active_element.get_attribute('id') == 'tasks':
                break
            press(a, Keys.TAB)
        press(a, Keys.ARROW_DOWN)
        wait(a, lambda d: (tooltip(d) or {}).get('title') == 'Build', 'no tooltip for the row selected by keyboard')
        self.assertEqual(a.find_element(By.ID, 'tasks').get_attribute('aria-describedby'), 'bar-tip')
        press(a, Keys.ESCAPE)
        wait(a, lambda d: tooltip(d) is None and d.find_element(By.ID, 'tasks').get_attribute('aria-describedby') is None)
        # A manual plan: dates and progress, no slack (its figures exist, but nothing is scheduled by them).
        manual = self.people.plan()
        self.open(a, manual)
        hover(a, 'research')
        wait(a, lambda d: (tooltip(d) or {}).get('title') == 'User research')
        self.assertEqual(tooltip(a), {'title': 'User research', 'dates': '2026-09-07 – 2026-09-11 · 5 days', 'progress': 'Progress: 100 %'})

    def test_the_split_and_a_column_resized_are_kept_after_a_reload(self):
        a = self.a
        plan = self.people.plan()
        self.open(a, plan)
        self.assertEqual(round(box(a, '#tasks .list-body')['width']), 614)
        ActionChains(a).click_and_hold(a.find_element(By.CSS_SELECTOR, '#tasks .splitter')).move_by_offset(-200, 0).pause(0.05) \
            .move_by_offset(-14, 0).release().perform()
        wait(a, lambda d: round(box(d, '#tasks .list-body')['width']) == 400, f'the split did not move: {box(a, "#tasks .list-body")}')
        self.assertEqual(round(box(a, '#tasks svg.chart-body')['left']), round(box(a, '#tasks .list-body')['right']))
        grip = a.find_element(By.CSS_SELECTOR, '#tasks .corner .grip[data-column="name"]')
        ActionChains(a).click_and_hold(grip).move_by_offset(30, 0).pause(0.05).move_by_offset(30, 0).release().perform()
        wait(a, lambda d: round(box(d, '#tasks .row .cell.name')['width']) == 300, 'the title column did not widen')
        self.assertEqual(round(box(a, '#tasks .corner [data-column="name"]')['width']), 300)
        self.assertEqual(round(box(a, '#tasks .list-body')['width']), 460, 'the split moved with the column')
        # The keyboard: a divider takes ← and →.
        a.find_element(By.CSS_SELECTOR, '#tasks .corner .grip[data-column="kind"]').click()
        press(a, Keys.ARROW_RIGHT)
        wait(a, lambda d: round(box(d, '#tasks .row .cell.kind')['width']) == 112, 'the arrow did not widen the column')
        self.assertEqual(a.switch_to.active_element.get_attribute('data-column'), 'kind', 'the divider keeps the focus')
        kept = json.loads(a.execute_script('return localStorage.getItem("chronosketch.layout")'))
        self.assertEqual(kept, {'columns': {'name': 300, 'kind': 112}, 'split': 476})
        shot(a, 'resized')
        a.refresh()
        wait(a, lambda d: row(d, 'Storage layer'), 'the plan did not open again')
        wait(a, lambda d: round(box(d, '#tasks .row .cell.name')['width']) == 300 and round(box(d, '#tasks .list-body')['width']) == 476,
             'the widths were not kept')
        self.assertEqual(round(box(a, '#tasks .row .cell.kind')['width']), 112)
        self.assertEqual(a.find_element(By.CSS_SELECTOR, '#tasks .splitter').get_attribute('aria-valuenow'), '476')

    def test_print_shows_every_row_and_the_chart_on_pages_without_the_toolbar(self):
        a = self.a
        plan = self.people.plan(extra_tasks=copy.deepcopy(EXTRA))
        self.open(a, plan)
        self.assertLess(len(rows(a)), 43, 'the screen holds only some of the rows')
        self.addCleanup(print_media, a, False)
        print_media(a, True)
        wait(a, lambda d: d.find_elements(By.CSS_SELECTOR, '#print .print-page'), 'no pages under print media')
        self.assertFalse(a.find_element(By.CSS_SELECTOR, '.toolbar').is_displayed(), 'the toolbar is printed')
        self.assertFalse(a.find_element(By.ID, 'heading').is_displayed())
        printed = a.execute_script('''return [...document.querySelectorAll('#print .print-page')].map((page) => ({
            rows: [...page.querySelectorAll('.print-row .title')].map((t) => t.textContent),
            bars: page.querySelectorAll('svg.chart-body .bar, svg.chart-body .milestone').length,
            arrows: page.querySelectorAll('svg.chart-body path.arrow').length,
            heading: page.querySelector('.print-heading').textContent, width: page.getBoundingClientRect().width }));''')
        titles = [title for page in printed for title in page['rows']]
        self.assertEqual(sorted(set(titles)), sorted(ALL + [task['title'] for task in EXTRA]), 'every row printed')
        runs = {tuple(page['rows']) for page in printed}
        self.assertEqual(sorted(len(run) for run in runs), [1, 21, 21], 'the rows on pages of 21')
        self.assertEqual(printed[0]['rows'][:2], ['Design', 'User research'])
        self.assertGreater(len(printed), len(runs), 'the chart goes on across pages')
        self.assertTrue(all(page['width'] <= 970 for page in printed))
        self.assertIn('Page 1 of', printed[0]['heading'])
        self.assertIn('ChronoSketch launch', printed[0]['heading'])
        self.assertGreater(sum(page['bars'] for page in printed), 43)
        # Each page draws the arrows touching its rows: the same on every page of a run of rows.
        arrows = {}
        for page in printed:
            arrows.setdefault(tuple(page['rows']), set()).add(page['arrows'])
        self.assertTrue(all(len(counts) == 1 for counts in arrows.values()), arrows)
        self.assertGreater(sum(counts.pop() for counts in arrows.values()), 0, 'no arrow printed')
        shot(a, 'print-media')
        print_media(a, False)
        wait(a, lambda d: not d.find_elements(By.ID, 'print') and d.find_element(By.CSS_SELECTOR, '.toolbar').is_displayed(),
             'the page did not come back after printing')

    def test_readme_screenshot_of_the_demo_plan(self):
        a = self.a
        plan = self.people.plan()
        a.set_window_size(1400, 740)
        self.addCleanup(a.set_window_size, 1400, 900)
        self.open(a, plan)
        select_row(a, 'Plan server')
        press(a, 'f')
        wait(a, lambda d: 0.85 <= marks_span(d)[1] / marks_span(d)[2] <= 1, 'not fitted')
        wait(a, lambda d: row(d, 'Launch') is not None)
        readme_copy(shot(a, 'demo-plan'), 'web-demo.png')

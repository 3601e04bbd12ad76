// The calendar feed's addresses: the full URL of the server's path on the page's origin, and the
// same as a webcal: link for calendar applications (http and https alike).
import test from 'node:test';
import assert from 'node:assert/strict';
import { feedAddresses } from '../../../clients/web/js/calendar-feed.mjs';

test('the path becomes a full address on the page origin, and a webcal: link', () => {
  const path = '/plans/demo%20plan/calendar.ics?key=Qm9-_x';
  assert.deepEqual(feedAddresses(path, 'https://plans.example.com/#demo'), {
    url: 'https://plans.example.com/plans/demo%20plan/calendar.ics?key=Qm9-_x',
    webcal: 'webcal://plans.example.com/plans/demo%20plan/calendar.ics?key=Qm9-_x',
  });
  assert.equal(feedAddresses(path, 'http://127.0.0.1:8080/').webcal,
    'webcal://127.0.0.1:8080/plans/demo%20plan/calendar.ics?key=Qm9-_x');
});

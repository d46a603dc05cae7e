import { describe, expect, it } from 'vitest';
import { ApiError, judgeAnswer } from '../../web/src/api/answer';

// What the SPA's generic API layer makes of an answer (spec 4 §8, decision 176): the data, or
// the error the call throws and the words the layer shows by itself as a warning toast. The
// browser test (e2e 53) drives the same paths through the real fetch in Chromium.

const failure = (status: number, statusLine: string, body: unknown, quiet = false) => {
  const verdict = judgeAnswer(status, statusLine, body, quiet);
  if (!verdict.error) throw new Error('expected a failure');
  expect(verdict.error).toBeInstanceOf(ApiError);
  return verdict;
};

describe('the generic API layer', () => {
  it('answers the data of a 2xx envelope and shows nothing', () => {
    expect(judgeAnswer(200, 'OK', { data: { id: 7 } })).toEqual({ data: { id: 7 } });
    expect(judgeAnswer(204, '', null)).toEqual({ data: null });
  });

  it('shows data.message of a 2xx answer with errors: true and throws it', () => {
    const { error, notice } = failure(200, 'OK', { errors: true, data: { message: 'Campaign is locked.' } });
    expect(notice).toBe('Campaign is locked.');
    expect(error.status).toBe(200);
    expect(error.firstMessage).toBe('Campaign is locked.');
    // The body's own message when data has none.
    expect(failure(200, 'OK', { errors: true, message: 'Nothing was saved.' }).notice).toBe(
      'Nothing was saved.',
    );
    // errors: false, or a field map, is a plain answer.
    expect(judgeAnswer(200, 'OK', { errors: false, data: 3 })).toEqual({ data: 3 });
  });

  it('shows a server failure by its status text, also when HTTP/2 sends none', () => {
    const served = failure(500, 'Internal Server Error', { message: 'Server Error' });
    expect(served.notice).toBe('Internal Server Error');
    expect(served.error.firstMessage).toBe('Server Error');
    const bare = failure(503, '', null);
    expect(bare.notice).toBe('Service Unavailable');
    expect(bare.error.firstMessage).toBe('Service Unavailable');
    expect(failure(507, '', null).notice).toBe('Server error (507)');
  });

  it('leaves 4xx answers to the screen and a quiet call to its own words', () => {
    const invalid = failure(422, 'Unprocessable Entity', {
      message: 'The name field is required.',
      errors: { name: ['The name field is required.'] },
    });
    expect(invalid.notice).toBeNull();
    expect(invalid.error.fieldErrors).toEqual({ name: 'The name field is required.' });
    const refused = failure(403, 'Forbidden', { message: 'This action is unauthorized.' });
    expect(refused.notice).toBeNull();
    expect(refused.error.firstMessage).toBe('This action is unauthorized.');
    const quiet = failure(503, 'Service Unavailable', null, true);
    expect(quiet.notice).toBeNull();
    expect(quiet.error.firstMessage).toBe('Service Unavailable');
  });
});

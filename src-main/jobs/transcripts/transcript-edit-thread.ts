/** The thread that edits large revisions (transcript-edit-work.ts sends it the work and says why). */
import { serveThreadRequests } from '../../engines/worker/fair-thread.js';
import { EDIT_FAILURE, editRevisionText, type EditAnswer, type EditRequest } from './transcript-edit-work.js';

serveThreadRequests<EditRequest, EditAnswer>(EDIT_FAILURE, (request) => ({ answer: editRevisionText(request) }));

export { ApiError, type ErrorDetail, fail, failLogged } from './api-error';
export { CATALOGUE, type CatalogueEntry, type ErrorCode, MESSAGES, REDIRECT_ERRORS } from './catalogue';
